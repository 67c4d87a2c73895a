import { and, asc, eq, sql } from 'drizzle-orm';
import { executions, reprocessItems, reprocessJobs } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { isUuid } from '../context';

export interface ReprocessGetInput {
  id: string;
  limit: number;
  offset: number;
}

/** Where a run of a bulk reprocess is: its own state, or for a started one the status of its retry. */
const progress = sql<'queued' | 'done' | 'failed' | 'skipped'>`case
  when ${reprocessItems.state} = 'skipped' then 'skipped'
  when ${reprocessItems.state} = 'failed' then 'failed'
  when ${reprocessItems.state} = 'pending' then 'queued'
  when ${executions.status} = 'completed' then 'done'
  when ${executions.status} in ('queued', 'running') then 'queued'
  else 'failed' end`;

/**
 * A bulk reprocess of the caller's organization (another organization's is not found): how many of its runs are
 * queued (not retried yet, or their retry still running), done (the retry completed), failed (the retry failed, or
 * none could start) and skipped (not retryable: the code says why); and its runs, each with the retry it started.
 */
export async function getReprocess(ctx: ServiceContext, input: ReprocessGetInput) {
  const notFound = () => new AppError('NOT_FOUND', `No bulk reprocess ${input.id} in this organization.`);
  if (!isUuid(input.id)) throw notFound();
  const [job] = await ctx.db
    .select()
    .from(reprocessJobs)
    .where(and(eq(reprocessJobs.id, input.id), eq(reprocessJobs.orgId, ctx.principal.orgId)));
  if (!job) throw notFound();
  const joined = and(eq(executions.id, reprocessItems.retryId), eq(executions.orgId, job.orgId));
  const counts = await ctx.db
    .select({ progress, count: sql<number>`count(*)::int` })
    .from(reprocessItems)
    .leftJoin(executions, joined)
    .where(eq(reprocessItems.jobId, job.id))
    .groupBy(progress);
  const by = { queued: 0, done: 0, failed: 0, skipped: 0 };
  for (const c of counts) by[c.progress] = c.count;
  const runs = await ctx.db
    .select({
      execution_id: reprocessItems.executionId,
      progress,
      retry_id: reprocessItems.retryId,
      error_code: sql<string | null>`coalesce(${reprocessItems.errorCode}, ${executions.error}->>'code')`,
      error_message: sql<string | null>`coalesce(${reprocessItems.errorMessage}, ${executions.error}->>'message')`,
    })
    .from(reprocessItems)
    .leftJoin(executions, joined)
    .where(eq(reprocessItems.jobId, job.id))
    .orderBy(asc(reprocessItems.batch), asc(reprocessItems.executionId))
    .limit(input.limit)
    .offset(input.offset);
  return {
    id: job.id,
    created_at: job.createdAt.toISOString(),
    filter: job.filter,
    status: by.queued > 0 ? ('running' as const) : ('completed' as const),
    total: job.total,
    ...by,
    runs: runs.map(({ progress: state, ...r }) => ({ ...r, state })),
  };
}
