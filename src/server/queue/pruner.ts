import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import type { Queue } from './queue';

export const PRUNE_QUEUE = 'clinflow-prune';

export interface PruneJob {
  /** Who asked for this pass besides the schedule (an admin's "prune now"). */
  requestedBy?: string;
}

export interface PruneSchedule {
  /** Cron of the passes (PRUNE_SCHEDULE; every five minutes by default). */
  cron: string;
  /** Seconds a job may stay active without a heartbeat from its process before it is failed (a dead process). */
  heartbeatSeconds: number;
}

/**
 * The pruner's schedule and its worker, in every process that shares the queue: pg-boss turns each cron occurrence into
 * one job whichever processes schedule it, and the queue's `exclusive` policy keeps one job queued or active at a time,
 * so one pass runs at a time across all processes and machines — an occurrence due while a pass is still going is
 * dropped, and a pass whose process died is failed after its heartbeat stops. `run` is the service (server/jobs.ts).
 */
export async function startPruner(queue: Queue, schedule: PruneSchedule, run: (job: { id: string; signal: AbortSignal }) => Promise<unknown>): Promise<void> {
  await queue.boss.createQueue(PRUNE_QUEUE, { policy: 'exclusive', retryLimit: 0, heartbeatSeconds: schedule.heartbeatSeconds, expireInSeconds: 60 * 60 });
  await queue.boss.schedule(PRUNE_QUEUE, schedule.cron, {} satisfies PruneJob, { key: 'retention' });
  await queue.boss.work<PruneJob>(PRUNE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
    if (job) await run({ id: job.id, signal: job.signal });
  });
}

/**
 * Asks for a pass now: the id of the job that will run it — a new one, or the one already queued and not yet started
 * (the queue holds one at a time). A pass already running may have passed the caller's runs before the caller changed
 * them (an admin shortens a retention, then prunes): it is waited for, and a new pass queued once it ends. The queue
 * refuses a new job while another is queued or running; when that one has finished by the time it is looked up (several
 * "prune now" at once: the pass of the first can end in between), the queue is asked again. When the running pass
 * outlasts `waitMs`, its id is the answer (the caller reports it as still running); null only when the queue keeps
 * refusing with nothing queued or running.
 */
export async function requestPrune(queue: Queue, db: Db, requestedBy: string, waitMs = 50_000): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (let refused = 0; refused < 3;) {
    const id = await queue.boss.send(PRUNE_QUEUE, { requestedBy } satisfies PruneJob);
    if (id) return id;
    const [pending] = rowsOf<{ id: string; state: string }>(
      await db.execute(
        sql`select id::text, state::text from pgboss.job where name = ${PRUNE_QUEUE} and state in ('created', 'retry', 'active') order by created_on limit 1`,
      ),
    );
    if (!pending) refused++;
    else if (pending.state !== 'active' || Date.now() >= deadline) return pending.id;
    else await sleep(250);
  }
  return null;
}
