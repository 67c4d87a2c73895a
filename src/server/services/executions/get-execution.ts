import { and, eq } from 'drizzle-orm';
import { executionNodes, executions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';
import { toDetail } from './shape';

export async function findExecutionRow(ctx: ServiceContext, id: string) {
  const notFound = new AppError('EXECUTION_NOT_FOUND', `Execution ${id} was not found.`);
  if (!isUuid(id)) throw notFound;
  const [row] = await ctx.db
    .select()
    .from(executions)
    .where(and(eq(executions.id, id), eq(executions.orgId, ctx.principal.orgId)));
  if (!row) throw notFound;
  return row;
}

/** Full record: per-node inputs, outputs, timing, logs and errors, in the order the nodes started. */
export async function getExecution(ctx: ServiceContext, id: string) {
  const row = await findExecutionRow(ctx, id);
  const nodes = await ctx.db.select().from(executionNodes).where(eq(executionNodes.executionId, row.id));
  nodes.sort((a, b) => (a.startedAt?.getTime() ?? Infinity) - (b.startedAt?.getTime() ?? Infinity));
  return toDetail(row, nodes);
}
