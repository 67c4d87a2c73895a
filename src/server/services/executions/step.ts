import { and, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { NodeRun } from '@/engine/execute-node';
import type { Graph } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import { StepRun } from '@/engine/run';
import type { Db } from '@/server/db/client';
import { executions, stepSessions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { PipelineDefinition } from '@/shared/pipeline';
import { isUuid, type RunHost, type ServiceContext } from '../context';
import { nodeResults, toNodeRun } from './execution-views';
import { nodeRecord, readNodeRecords, saveNodeRecords, saveResult } from './node-records';
import { appliedPolicy } from './data-policy';
import { currentPipeline, loadDefinition, refuseInvalid } from './runnable-pipeline';
import { startExecution } from './start-execution';
import { withInputs } from './stored-inputs';

/** A session waits this long for its next step; then it expires and its execution is cancelled. */
export const STEP_SESSION_IDLE_MS = 60 * 60 * 1000;

/**
 * Step-session expiry, the one rule (the answer to a step and the maintenance sweep both use it): a
 * session still waiting past `expiresAt` is expired, whether or not anything has marked it yet.
 */
function idle(session: { status: string; expiresAt: Date }, now: number): boolean {
  return session.status === 'waiting' && session.expiresAt.getTime() < now;
}
/** The same rule as a condition on `step_sessions`. */
function idleWhere(now: Date): SQL {
  return and(eq(stepSessions.status, 'waiting'), lt(stepSessions.expiresAt, now))!;
}

/** Whether a session can still be advanced: 410 when expired (marked or not), 409 when finished. */
export function sessionState(session: { status: string; expiresAt: Date }, now = Date.now()): 'waiting' | 'expired' | 'finished' {
  if (session.status === 'expired' || idle(session, now)) return 'expired';
  return session.status === 'waiting' ? 'waiting' : 'finished';
}

/**
 * Marks idle sessions expired and cancels their executions: every idle session (the maintenance sweep),
 * or one (a step on it found it idle). Returns how many it marked.
 */
export async function expireIdleSessions(db: Db, now = new Date(), sessionId?: string): Promise<number> {
  const where = sessionId ? and(idleWhere(now), eq(stepSessions.id, sessionId)) : idleWhere(now);
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(stepSessions)
      .set({ status: 'expired', currentNode: null, updatedAt: now })
      .where(where)
      .returning({ executionId: stepSessions.executionId });
    if (expired.length === 0) return 0;
    await tx
      .update(executions)
      .set({
        status: 'cancelled',
        finishedAt: now,
        error: { node_id: null, code: 'STEP_SESSION_EXPIRED', message: 'The step session expired after an hour without use.' },
      })
      .where(
        and(
          inArray(
            executions.id,
            expired.map((e) => e.executionId),
          ),
          eq(executions.status, 'running'),
        ),
      );
    return expired.length;
  });
}

/** The step session's run, rebuilt from the execution's stored node records. */
function stepRun(
  rt: RunHost,
  execution: { id: string; orgId: string; inputs: Record<string, unknown>; testMode: boolean },
  def: PipelineDefinition,
  carried: Record<string, NodeRun>,
) {
  return StepRun.of(def, {
    executionId: execution.id,
    inputs: execution.inputs,
    testMode: execution.testMode,
    registry: getNodeType,
    services: rt.host.nodeServices(rt.db, execution.orgId),
    carried,
  });
}

/** Starts a step session over a new execution (in test mode any pipeline, else a deployed one); it waits at the trigger. */
export async function startStep(ctx: ServiceContext, input: { pipeline_id: string; inputs: Record<string, unknown>; test_mode: boolean }) {
  const pipeline = await currentPipeline(ctx, input.pipeline_id, 'latest');
  refuseInvalid(pipeline);
  // stepping for real makes the same calls a run does, so it needs what a run needs (as POST /api/execute)
  if (!input.test_mode && pipeline.status !== 'deployed') {
    throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipeline.id} is not deployed: deploy it, or step through it in test mode.`);
  }
  const started = await startExecution(ctx.db, {
    orgId: ctx.principal.orgId,
    pipelineId: pipeline.id,
    pipelineVersion: pipeline.version,
    trigger: 'step',
    testMode: input.test_mode,
    inputs: input.inputs,
    status: 'running',
  });
  const run = stepRun(ctx, { id: started.id, orgId: ctx.principal.orgId, inputs: input.inputs, testMode: input.test_mode }, pipeline.definition, {});
  const first = run.current();
  // nodes no path from the trigger reaches are settled (skipped) before the first step
  await saveNodeRecords(ctx.db, started.id, records(pipeline.graph, run.takeChanged()));
  const [session] = await ctx.db
    .insert(stepSessions)
    .values({
      orgId: ctx.principal.orgId,
      executionId: started.id,
      currentNode: first,
      status: 'waiting',
      expiresAt: new Date(Date.now() + STEP_SESSION_IDLE_MS),
    })
    .returning();
  return { session_id: session!.id, execution_id: started.id, current_node: first, status: 'waiting' as const, node_results: {} };
}

/**
 * Advances a session by one node on the engine's step kernel: with `node_outputs` those become the node's
 * outputs (pinned data), without them the node runs for real (in test mode if the session is). Nodes that
 * cannot run (branch not taken, upstream failed) are settled on the way to the next one, and when the
 * execution is over its remaining nodes are recorded, and its row ends, as a full run's do.
 */
export async function advanceStep(ctx: ServiceContext, sessionId: string, nodeOutputs?: Record<string, unknown>) {
  const notFound = new AppError('STEP_SESSION_NOT_FOUND', `Step session ${sessionId} was not found.`);
  if (!isUuid(sessionId)) throw notFound;
  const [session] = await ctx.db
    .select()
    .from(stepSessions)
    .where(and(eq(stepSessions.id, sessionId), eq(stepSessions.orgId, ctx.principal.orgId)));
  if (!session) throw notFound;
  const state = sessionState(session);
  if (state === 'expired') {
    await expireIdleSessions(ctx.db, new Date(), session.id); // no-op when the sweep already marked it
    throw new AppError('STEP_SESSION_EXPIRED', 'This step session expired after an hour without use; start a new one.');
  }
  if (state === 'finished' || !session.currentNode) {
    throw new AppError('STEP_SESSION_FINISHED', `This step session is ${session.status === 'waiting' ? 'done' : session.status}.`);
  }
  const [execution] = (await ctx.db.select().from(executions).where(eq(executions.id, session.executionId))).map(withInputs);
  const def = await loadDefinition(ctx.db, execution!.pipelineId, execution!.pipelineVersion);
  const { graph } = planOf(def, getNodeType);
  const nodeId = session.currentNode;
  if (nodeOutputs) refuseUnknownOutputs(graph, nodeId, nodeOutputs);
  const rows = await readNodeRecords(ctx.db, execution!.id);
  const carried: Record<string, NodeRun> = Object.fromEntries(rows.map((r) => [r.nodeId, toNodeRun(r)]));
  const run = stepRun(ctx, execution!, def, carried);
  if (run.current() !== nodeId) throw new AppError('INTERNAL', `Step session ${sessionId} is out of step with its execution.`);
  const outcome = await run.advance(nodeOutputs);

  const all = { ...carried, ...outcome.changed };
  // listed as a full run lists them: in the definition's order
  const results = nodeResults(
    [...graph.nodes.keys()]
      .filter((id) => all[id])
      .map((id) => ({ node_id: id, status: all[id]!.status, duration_ms: all[id]!.duration_ms, reason: all[id]!.reason })),
  );
  const { run: done } = outcome;
  const finished = { node_id: nodeId, status: done.status, outputs: done.outputs, error: done.error, duration_ms: done.duration_ms };
  const base = { session_id: session.id, execution_id: execution!.id, finished_node: finished, node_results: results };
  const now = new Date();
  if (outcome.result) {
    const { result } = outcome;
    // the execution ends as a full run's does: status, outputs, error, timing and node records in one statement
    await ctx.db.transaction(async (tx) => {
      // a step session keeps everything whatever the pipeline's data policy (data-policy.ts)
      const data = { policy: appliedPolicy('full', execution!), inputs: execution!.inputs };
      await saveResult(tx, execution!.id, records(graph, outcome.changed), result, execution!.startedAt ?? now, undefined, data);
      await tx.update(stepSessions).set({ status: result.status, currentNode: null, updatedAt: now }).where(eq(stepSessions.id, session.id));
    });
    return { ...base, current_node: null, status: result.status, ...(result.error ? { error: result.error } : {}) };
  }
  await ctx.db.transaction(async (tx) => {
    await saveNodeRecords(tx, execution!.id, records(graph, outcome.changed));
    await tx
      .update(stepSessions)
      .set({ currentNode: outcome.next, expiresAt: new Date(now.getTime() + STEP_SESSION_IDLE_MS), updatedAt: now })
      .where(eq(stepSessions.id, session.id));
  });
  return { ...base, current_node: outcome.next, status: 'waiting' as const };
}

/** `node_outputs` may name only output ports of the node (400 naming the others). */
function refuseUnknownOutputs(graph: Graph, nodeId: string, nodeOutputs: Record<string, unknown>): void {
  const known = new Set(graph.nodes.get(nodeId)!.outputs.map((p) => p.name));
  const unknown = Object.keys(nodeOutputs).filter((k) => !known.has(k));
  if (unknown.length) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Node "${nodeId}" has no output ${unknown.map((k) => `"${k}"`).join(', ')}.`,
      unknown.map((k) => ({ path: `node_outputs.${k}`, message: 'not an output port of this node' })),
    );
  }
}

function records(graph: Graph, runs: Record<string, NodeRun>) {
  return Object.entries(runs).map(([id, r]) => nodeRecord(id, graph.nodes.get(id)!.def.type, r));
}
