import { and, eq, sql } from 'drizzle-orm';
import type { NodeRun } from '@/engine/execute-node';
import { getNodeType } from '@/engine/nodes';
import { runPipeline, type RunResult } from '@/engine/run';
import type { Db } from '@/server/db/client';
import { executionNodes, executions, pipelineVersions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { PipelineDefinition } from '@/shared/pipeline';
import { toNodeRun } from './shape';

export interface RunExecutionOptions {
  /** Node runs taken over unchanged (retry). Without it, finished nodes of an interrupted run are kept. */
  carried?: Record<string, NodeRun>;
  inputOverrides?: Record<string, Record<string, unknown>>;
  signal?: AbortSignal;
  /**
   * A run inside the request that started it (sync, retry): the caller has the definition and the row's
   * values, and node records are written once, together with the result, instead of as each node runs.
   */
  inline?: { definition: PipelineDefinition; inputs: Record<string, unknown>; testMode: boolean; startedAt: Date };
}

export async function loadDefinition(db: Db, pipelineId: string, version: number): Promise<PipelineDefinition> {
  const [v] = await db
    .select({ definition: pipelineVersions.definition })
    .from(pipelineVersions)
    .where(and(eq(pipelineVersions.pipelineId, pipelineId), eq(pipelineVersions.version, version)));
  if (!v) throw new AppError('PIPELINE_NOT_FOUND', `Pipeline ${pipelineId} version ${version} no longer exists.`);
  return v.definition;
}

function nodeValues(executionId: string, nodeId: string, nodeType: string, run: NodeRun) {
  return {
    executionId,
    nodeId,
    nodeType,
    status: run.status,
    inputs: run.inputs,
    outputs: run.outputs,
    logs: run.logs,
    error: run.error,
    attempts: run.attempts,
    startedAt: run.started_at ? new Date(run.started_at) : null,
    finishedAt: run.finished_at ? new Date(run.finished_at) : null,
    durationMs: run.duration_ms,
  };
}

export async function saveNodeRun(db: Db, executionId: string, nodeId: string, nodeType: string, run: NodeRun): Promise<void> {
  const values = nodeValues(executionId, nodeId, nodeType, run);
  const { executionId: _e, nodeId: _n, ...update } = values;
  await db.insert(executionNodes).values(values).onConflictDoUpdate({ target: [executionNodes.executionId, executionNodes.nodeId], set: update });
}

/** Writes the result of an execution: every node record in one statement, then the execution row. */
async function saveResult(db: Db, executionId: string, typeOf: Map<string, string>, result: RunResult, startedAt: Date): Promise<void> {
  const finishedAt = new Date();
  await db.transaction(async (tx) => {
    const rows = Object.entries(result.nodes).map(([id, run]) => nodeValues(executionId, id, typeOf.get(id) ?? 'unknown', run));
    if (rows.length > 0) {
      await tx
        .insert(executionNodes)
        .values(rows)
        .onConflictDoUpdate({
          target: [executionNodes.executionId, executionNodes.nodeId],
          set: Object.fromEntries(
            ['status', 'inputs', 'outputs', 'logs', 'error', 'attempts', 'started_at', 'finished_at', 'duration_ms'].map((c) => [
              c.replace(/_(\w)/g, (_, ch: string) => ch.toUpperCase()),
              sql.raw(`excluded.${c}`),
            ]),
          ),
        });
    }
    await tx
      .update(executions)
      .set({ status: result.status, outputs: result.outputs, error: result.error, finishedAt, durationMs: finishedAt.getTime() - startedAt.getTime() })
      .where(eq(executions.id, executionId));
  });
}

/**
 * Runs an execution whose row exists: the pipeline version it was started on, each node's record written
 * as it starts and ends (live progress, and what a resumed run needs), then the final status. A run picked
 * up again after a crash keeps the nodes that had finished, so nothing that was written is written twice.
 */
export async function runExecution(db: Db, executionId: string, opts: RunExecutionOptions = {}): Promise<RunResult> {
  if (opts.inline) {
    const { definition, inputs, testMode, startedAt } = opts.inline;
    const result = await runPipeline(definition, {
      executionId,
      inputs,
      testMode,
      registry: getNodeType,
      services: { fetch },
      signal: opts.signal,
      carried: opts.carried,
      inputOverrides: opts.inputOverrides,
    });
    await saveResult(db, executionId, new Map(definition.nodes.map((n) => [n.id, n.type])), result, startedAt);
    return result;
  }
  const [row] = await db
    .update(executions)
    .set({ status: 'running', startedAt: sql`coalesce(${executions.startedAt}, now())` })
    .where(eq(executions.id, executionId))
    .returning();
  if (!row) throw new AppError('EXECUTION_NOT_FOUND', `Execution ${executionId} was not found.`);
  const def = await loadDefinition(db, row.pipelineId, row.pipelineVersion);
  const typeOf = new Map(def.nodes.map((n) => [n.id, n.type]));
  let carried = opts.carried;
  if (!carried) {
    const done = await db.select().from(executionNodes).where(eq(executionNodes.executionId, executionId));
    carried = Object.fromEntries(done.filter((n) => n.status === 'completed' || n.status === 'simulated').map((n) => [n.nodeId, toNodeRun(n)]));
  }
  for (const [nodeId, run] of Object.entries(carried)) await saveNodeRun(db, executionId, nodeId, typeOf.get(nodeId) ?? 'unknown', run);

  const result = await runPipeline(def, {
    executionId,
    inputs: row.inputs,
    testMode: row.testMode,
    registry: getNodeType,
    services: { fetch },
    signal: opts.signal,
    carried,
    inputOverrides: opts.inputOverrides,
    onNodeStart: (id, inputs) =>
      saveNodeRun(db, executionId, id, typeOf.get(id)!, { status: 'running', inputs, outputs: {}, logs: [], error: null, attempts: 0, started_at: new Date().toISOString(), finished_at: null, duration_ms: null }),
    onNodeEnd: (id, run) => saveNodeRun(db, executionId, id, typeOf.get(id)!, run),
  });
  const finishedAt = new Date();
  await db
    .update(executions)
    .set({
      status: result.status,
      outputs: result.outputs,
      error: result.error,
      finishedAt,
      durationMs: finishedAt.getTime() - (row.startedAt ?? finishedAt).getTime(),
    })
    .where(eq(executions.id, executionId));
  return result;
}
