import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { rowsOf } from '@/server/db/rows';
import { AppError } from '@/server/errors';
import { requestPrune } from '@/server/queue/pruner';
import type { ServiceContext } from '../context';

/** How long a "prune now" request waits for its pass before it answers that the pass is still going. */
const WAIT_MS = 50_000;

interface RunRow {
  id: string;
  status: string;
  started_at: string | Date;
  finished_at: string | Date | null;
}

/**
 * Runs a retention pass now (an admin's "prune now"), through the prune queue like the scheduled ones, so it is still
 * the only pass running anywhere: when one is already queued, this request joins it; when one is running, it waits for that
 * one to end and queues its own (the running one may have passed this organization's runs already). Answers
 * with the pass and what it removed of this organization's runs, or, after 50 s, with the pass still `running`.
 */
export async function pruneNow(ctx: ServiceContext) {
  if (!ctx.queue) throw new AppError('SERVICE_UNAVAILABLE', 'This process has no queue to run the pruner on.');
  const deadline = Date.now() + WAIT_MS;
  const jobId = await requestPrune(ctx.queue, ctx.db, `${ctx.principal.kind}:${ctx.principal.orgId}`, WAIT_MS);
  if (!jobId) throw new AppError('SERVICE_UNAVAILABLE', 'The pruner could not be queued; try again.');
  let run: RunRow | undefined;
  for (;;) {
    [run] = rowsOf<RunRow>(await ctx.db.execute(sql`select id, status, started_at, finished_at from prune_runs where job_id = ${jobId} limit 1`));
    if ((run && run.status !== 'running') || Date.now() >= deadline) break;
    await sleep(250);
  }
  const ofRun = run && sql`run_id = ${run.id}::uuid and org_id = ${ctx.principal.orgId}`;
  const [mine] = run
    ? rowsOf<{ executions_deleted: number; payloads_pruned: number; bytes_freed: number | string }>(
        await ctx.db.execute(sql`select coalesce(sum(executions_deleted), 0)::int as executions_deleted,
          coalesce(sum(payloads_pruned), 0)::int as payloads_pruned, coalesce(sum(bytes_freed), 0) as bytes_freed from prune_counts where ${ofRun}`),
      )
    : [];
  const iso = (d: string | Date | null) => (d === null ? null : new Date(d).toISOString());
  return {
    job_id: jobId,
    id: run?.id ?? null,
    status: (run?.status ?? 'queued') as 'queued' | 'running' | 'completed' | 'partial' | 'failed',
    started_at: run ? iso(run.started_at) : null,
    finished_at: run ? iso(run.finished_at) : null,
    executions_deleted: mine?.executions_deleted ?? 0,
    payloads_pruned: mine?.payloads_pruned ?? 0,
    bytes_freed: Number(mine?.bytes_freed ?? 0),
  };
}
