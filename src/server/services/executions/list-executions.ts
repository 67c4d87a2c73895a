import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { executions, type ExecutionStatus } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { isUuid } from '../context';
import { toSummary } from './execution-views';

export interface ListExecutionsInput {
  pipeline_id?: string;
  status?: ExecutionStatus;
  limit: number;
  offset: number;
}

/** History, newest first: status, timing and error; filter by pipeline and status. */
export async function listExecutions(ctx: ServiceContext, input: ListExecutionsInput) {
  const where: SQL[] = [eq(executions.orgId, ctx.principal.orgId)];
  if (input.pipeline_id !== undefined) {
    if (!isUuid(input.pipeline_id)) return { executions: [], total_count: 0 };
    where.push(eq(executions.pipelineId, input.pipeline_id));
  }
  if (input.status) where.push(eq(executions.status, input.status));
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(executions).where(and(...where)).orderBy(desc(executions.createdAt), desc(executions.id)).limit(input.limit).offset(input.offset),
    ctx.db.select({ n: count() }).from(executions).where(and(...where)),
  ]);
  return { executions: rows.map(toSummary), total_count: totals[0]?.n ?? 0 };
}
