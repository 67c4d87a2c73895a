import { and, eq } from 'drizzle-orm';
import { emptyRun, executeNode, type NodeRun } from '@/engine/execute-node';
import { topologicalOrder, type Graph } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { gatherInputs, planOf, shouldSkip } from '@/engine/plan';
import { executionNodes, executions, stepSessions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import { currentPipeline, loadDefinition, refuseInvalid } from './definitions';
import { nodeRecord, saveNodeRecords } from './node-records';
import { nodeResults, toNodeRun } from './shape';
import { startExecution } from './start-execution';

const IDLE_MS = 60 * 60 * 1000;

/** Starts a step session over a new execution (any pipeline status); it waits at the trigger. */
export async function startStep(ctx: ServiceContext, input: { pipeline_id: string; inputs: Record<string, unknown>; test_mode: boolean }) {
  const pipeline = await currentPipeline(ctx, input.pipeline_id);
  refuseInvalid(pipeline);
  const started = await startExecution(ctx.db, {
    orgId: ctx.principal.orgId,
    pipelineId: pipeline.id,
    pipelineVersion: pipeline.version,
    trigger: 'step',
    testMode: input.test_mode,
    inputs: input.inputs,
    status: 'running',
  });
  const { graph } = pipeline;
  const first = topologicalOrder(graph).order.find((id) => graph.triggers.includes(id)) ?? null;
  const [session] = await ctx.db
    .insert(stepSessions)
    .values({ orgId: ctx.principal.orgId, executionId: started.id, currentNode: first, status: 'waiting', expiresAt: new Date(Date.now() + IDLE_MS) })
    .returning();
  return { session_id: session!.id, execution_id: started.id, current_node: first, status: 'waiting' as const, node_results: {} };
}

/**
 * Advances a session by one node: with `node_outputs` those become the node's outputs (pinned data),
 * without them the node runs for real (in test mode if the session is). Nodes that cannot run (branch not
 * taken, upstream failed) are settled on the way to the next one.
 */
export async function advanceStep(ctx: ServiceContext, sessionId: string, nodeOutputs?: Record<string, unknown>) {
  const notFound = new AppError('STEP_SESSION_NOT_FOUND', `Step session ${sessionId} was not found.`);
  if (!isUuid(sessionId)) throw notFound;
  const [session] = await ctx.db.select().from(stepSessions).where(and(eq(stepSessions.id, sessionId), eq(stepSessions.orgId, ctx.principal.orgId)));
  if (!session) throw notFound;
  const [execution] = await ctx.db.select().from(executions).where(eq(executions.id, session.executionId));
  if (session.status === 'waiting' && session.expiresAt.getTime() < Date.now()) {
    await finish(ctx, session.id, execution!.id, 'expired', 'cancelled', {}, { node_id: null, code: 'STEP_SESSION_EXPIRED', message: 'The step session expired after an hour without use.' });
    throw new AppError('STEP_SESSION_EXPIRED', 'This step session expired after an hour without use; start a new one.');
  }
  if (session.status !== 'waiting' || !session.currentNode) {
    throw new AppError('STEP_SESSION_FINISHED', `This step session is ${session.status === 'waiting' ? 'done' : session.status}.`);
  }
  const def = await loadDefinition(ctx.db, execution!.pipelineId, execution!.pipelineVersion);
  const { graph } = planOf(def, getNodeType);
  const rows = await ctx.db.select().from(executionNodes).where(eq(executionNodes.executionId, execution!.id));
  const runs: Record<string, NodeRun> = Object.fromEntries(rows.map((r) => [r.nodeId, toNodeRun(r)]));
  const nodeId = session.currentNode;
  const node = graph.nodes.get(nodeId)!;
  const gathered = gatherInputs(graph, nodeId, runs);
  const inputs = gathered.wait ? {} : gathered.inputs;

  let run: NodeRun;
  if (nodeOutputs) {
    const known = new Set(node.outputs.map((p) => p.name));
    const unknown = Object.keys(nodeOutputs).filter((k) => !known.has(k));
    if (unknown.length) {
      throw new AppError('VALIDATION_FAILED', `Node "${nodeId}" has no output ${unknown.map((k) => `"${k}"`).join(', ')}.`, unknown.map((k) => ({ path: `node_outputs.${k}`, message: 'not an output port of this node' })));
    }
    const now = Date.now();
    const log = { level: 'info' as const, message: 'outputs set by hand in the step debugger', time: new Date(now).toISOString() };
    run = { ...emptyRun('completed'), inputs, outputs: nodeOutputs, started_ms: now, finished_ms: now, duration_ms: 0, logs: [log] };
  } else {
    run = await executeNode(node, inputs, {
      executionId: execution!.id,
      executionInputs: execution!.inputs,
      testMode: execution!.testMode,
      services: { fetch },
      runSubgraph: () => Promise.reject(new Error('for-each bodies run only in full executions')),
    });
  }
  runs[nodeId] = run;
  const { next, settled } = run.status === 'failed' ? { next: null, settled: [] } : settleUntilNext(graph, runs);
  const changed = [nodeId, ...settled].map((id) => nodeRecord(id, graph.nodes.get(id)!.def.type, runs[id]!));
  await saveNodeRecords(ctx.db, execution!.id, changed);
  const results = nodeResults(Object.entries(runs).map(([id, r]) => ({ node_id: id, status: r.status, duration_ms: r.duration_ms })));
  const finished = { node_id: nodeId, status: run.status, outputs: run.outputs, error: run.error, duration_ms: run.duration_ms };
  if (run.status === 'failed') {
    const error = { node_id: nodeId, code: run.error!.code, message: `Node "${nodeId}" (${node.def.type}) failed: ${run.error!.message}` };
    await finish(ctx, session.id, execution!.id, 'failed', 'failed', {}, error);
    return { session_id: session.id, execution_id: execution!.id, current_node: null, status: 'failed' as const, finished_node: finished, node_results: results, error };
  }
  if (!next) {
    await finish(ctx, session.id, execution!.id, 'completed', 'completed', collectOutputs(graph, runs), null);
    return { session_id: session.id, execution_id: execution!.id, current_node: null, status: 'completed' as const, finished_node: finished, node_results: results };
  }
  await ctx.db.update(stepSessions).set({ currentNode: next, expiresAt: new Date(Date.now() + IDLE_MS), updatedAt: new Date() }).where(eq(stepSessions.id, session.id));
  return { session_id: session.id, execution_id: execution!.id, current_node: next, status: 'waiting' as const, finished_node: finished, node_results: results };
}

/** Walks the topological order past nodes that cannot run, settling them in `runs`; finds the next runnable node. */
function settleUntilNext(graph: Graph, runs: Record<string, NodeRun>): { next: string | null; settled: string[] } {
  const settled: string[] = [];
  for (const id of topologicalOrder(graph).order) {
    if (runs[id]) continue;
    const g = gatherInputs(graph, id, runs);
    if (g.wait) continue;
    if (g.upstreamFailed) runs[id] = emptyRun('failed', { code: 'UPSTREAM_FAILED', message: `Upstream node "${g.upstreamFailed}" failed.` });
    else if (shouldSkip(graph, id, g.inputs)) runs[id] = { ...emptyRun('skipped'), inputs: g.inputs };
    else return { next: id, settled };
    settled.push(id);
  }
  return { next: null, settled };
}

/** pipeline-output nodes give `outputs[config.key ?? id]` = the value they received. */
function collectOutputs(graph: Graph, runs: Record<string, NodeRun>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, node] of graph.nodes) {
    const run = runs[id];
    if (node.def.type !== 'pipeline-output' || !run || (run.status !== 'completed' && run.status !== 'simulated')) continue;
    out[(node.config as { key?: string }).key ?? id] = run.inputs.value;
  }
  return out;
}

async function finish(
  ctx: ServiceContext,
  sessionId: string,
  executionId: string,
  sessionStatus: 'completed' | 'failed' | 'expired',
  status: 'completed' | 'failed' | 'cancelled',
  outputs: Record<string, unknown>,
  error: { node_id: string | null; code: string; message: string } | null,
) {
  const now = new Date();
  await ctx.db.update(stepSessions).set({ status: sessionStatus, currentNode: null, updatedAt: now }).where(eq(stepSessions.id, sessionId));
  const [row] = await ctx.db.select({ startedAt: executions.startedAt }).from(executions).where(eq(executions.id, executionId));
  await ctx.db
    .update(executions)
    .set({ status, outputs, error, finishedAt: now, durationMs: now.getTime() - (row?.startedAt ?? now).getTime() })
    .where(eq(executions.id, executionId));
}
