import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { executions, type ExecutionStatus } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { isUuid } from '../context';
import { toSummary } from './execution-views';

export interface ListExecutionsInput {
  pipeline_id?: string;
  status?: ExecutionStatus;
  since?: string;
  until?: string;
  q?: string;
  limit: number;
  offset: number;
}

/**
 * History, newest first: status, timing and error; filter by pipeline, status, creation time, and text found in
 * the inputs, outputs or error (an MRN, a message control id).
 */
export async function listExecutions(ctx: ServiceContext, input: ListExecutionsInput) {
  const where: SQL[] = [eq(executions.orgId, ctx.principal.orgId)];
  if (input.pipeline_id !== undefined) {
    if (!isUuid(input.pipeline_id)) return { executions: [], total_count: 0 };
    where.push(eq(executions.pipelineId, input.pipeline_id));
  }
  if (input.status) where.push(eq(executions.status, input.status));
  if (input.since) where.push(gte(executions.createdAt, new Date(input.since)));
  if (input.until) where.push(lt(executions.createdAt, new Date(input.until)));
  if (input.q) {
    // the text as it appears inside JSON (quotes and backslashes escaped), found literally (no LIKE wildcards)
    const pattern = `%${JSON.stringify(input.q)
      .slice(1, -1)
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const errorText = sql`coalesce(${executions.error}::text, '')`;
    where.push(sql`(${executions.inputs}::text ilike ${pattern} or ${executions.outputs}::text ilike ${pattern} or ${errorText} ilike ${pattern})`);
  }
  const [rows, totals] = await Promise.all([
    ctx.db
      .select()
      .from(executions)
      .where(and(...where))
      .orderBy(desc(executions.createdAt), desc(executions.id))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db
      .select({ n: count() })
      .from(executions)
      .where(and(...where)),
  ]);
  return { executions: rows.map(toSummary), total_count: totals[0]?.n ?? 0 };
}
