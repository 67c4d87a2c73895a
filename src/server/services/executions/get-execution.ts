import { and, eq } from 'drizzle-orm';
import { topologicalOrder } from '@/engine/graph';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import { executions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import { toDetail } from './execution-views';
import { readNodeRecords } from './node-records';
import { loadDefinition } from './runnable-pipeline';
import { withInputs } from './stored-inputs';
import { withOutputs } from './stored-payloads';

/** An execution of the caller's organization, its input as it was given and its outputs (stored-inputs.ts, stored-payloads.ts). */
export async function findExecutionRow(ctx: ServiceContext, id: string) {
  const notFound = new AppError('EXECUTION_NOT_FOUND', `Execution ${id} was not found.`);
  if (!isUuid(id)) throw notFound;
  const [row] = await ctx.db
    .select()
    .from(executions)
    .where(and(eq(executions.id, id), eq(executions.orgId, ctx.principal.orgId)));
  if (!row) throw notFound;
  return withOutputs(withInputs(row));
}

/**
 * Full record: per-node inputs, outputs, timing, logs and errors, in the graph's topological order (stable
 * in definition order), the nodes a retry reused from the original run first.
 */
export async function getExecution(ctx: ServiceContext, id: string) {
  const row = await findExecutionRow(ctx, id);
  const nodes = await readNodeRecords(ctx.db, row.id, row.nodeRuns);
  const rank = await topologicalRanks(ctx, row.pipelineId, row.pipelineVersion);
  const reused = (n: (typeof nodes)[number]) => (row.startedAt && n.startedAt && n.startedAt < row.startedAt ? 0 : 1);
  const started = (n: (typeof nodes)[number]) => n.startedAt?.getTime() ?? Infinity;
  nodes.sort((a, b) => reused(a) - reused(b) || (rank.get(a.nodeId) ?? Infinity) - (rank.get(b.nodeId) ?? Infinity) || started(a) - started(b));
  return toDetail(row, nodes);
}

/** Each node's place in the topological order of the version the execution ran (empty if that version is gone). */
async function topologicalRanks(ctx: ServiceContext, pipelineId: string, version: number): Promise<Map<string, number>> {
  try {
    const { graph } = planOf(await loadDefinition(ctx.db, pipelineId, version), getNodeType);
    return new Map(topologicalOrder(graph).order.map((nodeId, i) => [nodeId, i]));
  } catch (e) {
    if (e instanceof AppError && e.code === 'PIPELINE_NOT_FOUND') return new Map(); // the pipeline was deleted: start order
    throw e;
  }
}
