import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { executions } from '@/server/db/schema';
import { logger } from '@/server/logger';
import { expireIdleSessions } from './step';

/**
 * Sync runs, retries and scheduled runs live in the process that started them (no job to hand on); one
 * still `running` after an hour died with that process.
 */
const INTERRUPTED_AFTER_MS = 60 * 60 * 1000;

/**
 * Puts abandoned work in an honest state: step sessions idle for an hour expire (their executions are
 * cancelled), and synchronous executions whose process died mid-run are failed with INTERRUPTED.
 * Queued and async executions are not touched: pg-boss hands those to another worker.
 */
export async function sweep(db: Db, now = new Date()): Promise<{ expired: number; interrupted: number }> {
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
  if (expired || interrupted.length) logger.info('maintenance', { expired, interrupted: interrupted.length });
  return { expired, interrupted: interrupted.length };
}
