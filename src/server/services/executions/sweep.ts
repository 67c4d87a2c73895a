import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { executions } from '@/server/db/schema';
import { logger } from '@/server/logger';
import { endedOutsideEngine } from './data-policy';
import { expireIdleSessions } from './step';

/**
 * Sync runs, retries and scheduled runs live in the process that started them (no job to hand on); one
 * still `running` after an hour died with that process.
 */
const INTERRUPTED_AFTER_MS = 60 * 60 * 1000;

/**
 * Puts abandoned work in an honest state: step sessions idle for an hour expire (their executions are
 * cancelled), synchronous executions whose process died mid-run are failed with INTERRUPTED, and queued
 * ones (async, webhook) whose job the queue gave up are failed with RUN_ABANDONED. Queued executions whose
 * job is alive are not touched: pg-boss hands those to another worker. `executeQueue` names the queue's
 * execution jobs (without it, queued runs are not looked at).
 */
export async function sweep(db: Db, now = new Date(), executeQueue?: string): Promise<{ expired: number; interrupted: number; abandoned: number }> {
  // the step service owns the expiry rule: the same one decides what a step on an idle session answers
  const expired = await expireIdleSessions(db, now);
  const interrupted = await db
    .update(executions)
    .set({
      status: 'failed',
      finishedAt: now,
      error: { node_id: null, code: 'INTERRUPTED', message: 'The process running this execution stopped before it finished.' },
    })
    .where(
      and(
        eq(executions.status, 'running'),
        inArray(executions.trigger, ['api', 'editor', 'retry', 'schedule']),
        lt(executions.startedAt, new Date(now.getTime() - INTERRUPTED_AFTER_MS)),
      ),
    )
    .returning({ id: executions.id });
  const abandoned = executeQueue ? await failAbandonedQueued(db, now, executeQueue) : 0;
  if (interrupted.length)
    await db.execute(
      endedOutsideEngine(
        sql.join(
          interrupted.map((r) => sql`${r.id}::uuid`),
          sql`, `,
        ),
      ),
    );
  if (expired || interrupted.length || abandoned) logger.info('maintenance', { expired, interrupted: interrupted.length, abandoned });
  return { expired, interrupted: interrupted.length, abandoned };
}

/** Queued kinds of run get this long after they were written before the sweep looks at their job. */
const QUEUED_GRACE_MS = 5 * 60 * 1000;

/**
 * Queued runs (async, webhook, mllp) whose queue job is no longer alive — given up after its retries, expired, or
 * gone — end failed, freeing their slots; a run whose job is waiting, retrying or active is left to it, and so is one a
 * process claimed (no job: queue/claims.ts hands it to the queue if that process died).
 */
async function failAbandonedQueued(db: Db, now: Date, executeQueue: string): Promise<number> {
  const queue = rowsOf<{ job: string | null }>(await db.execute(sql`select to_regclass('pgboss.job')::text as job`))[0];
  if (!queue?.job) return 0; // no queue in this database (yet)
  const error = { node_id: null, code: 'RUN_ABANDONED', message: 'The queue gave this run up (its job failed on every attempt or expired).' };
  const result =
    await db.execute(sql`update executions e set status = 'failed', finished_at = ${now.toISOString()}::timestamptz, error = ${JSON.stringify(error)}::jsonb
    where e.status in ('queued', 'running') and e.trigger in ('async', 'webhook', 'mllp')
      and e.created_at < ${new Date(now.getTime() - QUEUED_GRACE_MS).toISOString()}::timestamptz
      and e.claimed_by is null
      and not exists (select 1 from pgboss.job j where j.name = ${executeQueue} and j.data->>'executionId' = e.id::text
        and j.state in ('created', 'retry', 'active'))
    returning e.id`);
  const ids = rowsOf<{ id: string }>(result);
  if (ids.length)
    await db.execute(
      endedOutsideEngine(
        sql.join(
          ids.map((r) => sql`${r.id}::uuid`),
          sql`, `,
        ),
      ),
    );
  return ids.length;
}
