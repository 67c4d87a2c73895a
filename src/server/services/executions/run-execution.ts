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
}

export async function loadDefinition(db: Db, pipelineId: string, version: number): Promise<PipelineDefinition> {
  const [v] = await db
    .select({ definition: pipelineVersions.definition })
    .from(pipelineVersions)
    .where(and(eq(pipelineVersions.pipelineId, pipelineId), eq(pipelineVersions.version, version)));
  if (!v) throw new AppError('PIPELINE_NOT_FOUND', `Pipeline ${pipelineId} version ${version} no longer exists.`);
  return v.definition;
}

export async function saveNodeRun(db: Db, executionId: string, nodeId: string, nodeType: string, run: NodeRun): Promise<void> {
  const values = {
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
  const { executionId: _e, nodeId: _n, ...update } = values;
  await db.insert(executionNodes).values(values).onConflictDoUpdate({ target: [executionNodes.executionId, executionNodes.nodeId], set: update });
}

/**
 * Runs an execution whose row exists: the pipeline version it was started on, each node's record written
 * as it starts and ends (live progress, and what a resumed run needs), then the final status. A run picked
 * up again after a crash keeps the nodes that had finished, so nothing that was written is written twice.
 */
export async function runExecution(db: Db, executionId: string, opts: RunExecutionOptions = {}): Promise<RunResult> {
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
