import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { executions, reprocessJobs, type ReprocessFilter } from '@/server/db/schema';
import { rowsOf } from '@/server/db/rows';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { findPipelineState } from '../pipelines/find';
import { enqueueReprocessBatches } from '@/server/queue/reprocess';

/** Runs one bulk request may take (a narrower filter takes the rest); and runs per queue job. */
export const MAX_REPROCESS = 10_000;
export const REPROCESS_BATCH = 25;

export interface ReprocessInput {
  pipeline_id?: string;
  since?: string;
  until?: string;
  status: 'failed' | 'cancelled';
  error_code?: string[];
  dry_run: boolean;
}

/**
 * The production runs of the caller's organization the filter selects that nobody has retried yet: not a test run,
 * not a run with a retry (finished or in flight), not a run another bulk reprocess has taken (pending or started).
 */
function candidates(orgId: string, f: ReprocessFilter): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(executions.orgId, orgId),
    eq(executions.testMode, false),
    eq(executions.status, f.status),
    f.pipeline_id ? eq(executions.pipelineId, f.pipeline_id) : undefined,
    f.from ? gte(executions.createdAt, new Date(f.from)) : undefined,
    f.to ? lt(executions.createdAt, new Date(f.to)) : undefined,
    f.error_code?.length ? inArray(sql`${executions.error}->>'code'`, f.error_code) : undefined,
    sql`not exists (select 1 from executions r where r.retry_of = ${executions.id})`,
    sql`not exists (select 1 from reprocess_items i where i.execution_id = ${executions.id} and i.state in ('pending', 'started'))`,
  ];
  return and(...conditions)!;
}

/**
 * Starts a bulk reprocess (issue 30 §2): the runs the filter selects are each retried from their failed node on their
 * recorded inputs, in batches of REPROCESS_BATCH through the queue. `dry_run` only counts. A run whose payloads were
 * not kept is counted in `not_kept` (it will be reported skipped, PAYLOADS_NOT_KEPT).
 */
export async function startReprocess(ctx: ServiceContext, input: ReprocessInput) {
  const filter = await filterOf(ctx, input);
  const where = candidates(ctx.principal.orgId, filter);
  const [counted] = await ctx.db
    .select({ matched: sql<number>`count(*)::int`, notKept: sql<number>`(count(*) filter (where ${executions.payloads} <> 'kept'))::int` })
    .from(executions)
    .where(where);
  const matched = counted?.matched ?? 0;
  const notKept = counted?.notKept ?? 0;
  if (input.dry_run) return { job_id: null, matched, not_kept: notKept, dry_run: true };
  if (matched > MAX_REPROCESS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The filter selects ${matched} runs; one bulk reprocess takes at most ${MAX_REPROCESS}. Narrow it (since/until, pipeline_id, error_code).`,
      [{ path: 'since', message: `selects ${matched} runs (at most ${MAX_REPROCESS})` }],
    );
  }
  const queue = ctx.queue;
  if (!queue) throw new AppError('SERVICE_UNAVAILABLE', 'This process has no queue to reprocess runs through.');
  const p = ctx.principal;
  const { jobId, total, batches } = await ctx.db.transaction(async (tx) => {
    const [job] = await tx
      .insert(reprocessJobs)
      .values({ orgId: p.orgId, filter, actorKind: p.kind, actorId: (p.kind === 'api-key' ? p.keyId : p.userId) ?? null, total: 0 })
      .returning({ id: reprocessJobs.id });
    const inserted = await tx.execute(sql`
      insert into reprocess_items (job_id, execution_id, batch)
      select ${job!.id}::uuid, id, ((row_number() over (order by created_at, id)) - 1) / ${REPROCESS_BATCH}
      from executions where ${where}
      on conflict do nothing
      returning batch`);
    const rows = rowsOf<{ batch: number }>(inserted);
    await tx.update(reprocessJobs).set({ total: rows.length }).where(eq(reprocessJobs.id, job!.id));
    const batches = [...new Set(rows.map((r) => Number(r.batch)))];
    await enqueueReprocessBatches(queue, tx, job!.id, batches);
    return { jobId: job!.id, total: rows.length, batches: batches.length };
  });
  return { job_id: jobId, matched: total, not_kept: notKept, dry_run: false, batches };
}

/** The filter as stored: times checked in order, the pipeline one of the caller's (another organization's is not found). */
async function filterOf(ctx: ServiceContext, input: ReprocessInput): Promise<ReprocessFilter> {
  if (input.since && input.until && new Date(input.since) >= new Date(input.until)) {
    throw new AppError('VALIDATION_FAILED', `"since" (${input.since}) must be before "until" (${input.until}).`, [
      { path: 'until', message: 'must be after since' },
    ]);
  }
  if (input.pipeline_id) await findPipelineState(ctx, input.pipeline_id);
  return {
    status: input.status,
    ...(input.pipeline_id ? { pipeline_id: input.pipeline_id } : {}),
    ...(input.since ? { from: input.since } : {}),
    ...(input.until ? { to: input.until } : {}),
    ...(input.error_code?.length ? { error_code: input.error_code } : {}),
  };
}
