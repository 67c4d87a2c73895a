import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { executions, stepSessions } from '@/server/db/schema';
import { logger } from '@/server/logger';
import type { Queue } from './queue';

export const MAINTENANCE_QUEUE = 'clinflow-maintenance';

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
  const expired = await db
    .update(stepSessions)
    .set({ status: 'expired', currentNode: null, updatedAt: now })
    .where(and(eq(stepSessions.status, 'waiting'), lt(stepSessions.expiresAt, now)))
    .returning({ executionId: stepSessions.executionId });
  if (expired.length > 0) {
    await db
      .update(executions)
      .set({ status: 'cancelled', finishedAt: now, error: { node_id: null, code: 'STEP_SESSION_EXPIRED', message: 'The step session expired after an hour without use.' } })
      .where(and(inArray(executions.id, expired.map((e) => e.executionId)), eq(executions.status, 'running')));
  }
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
        inArray(executions.trigger, ['api', 'retry', 'schedule']),
        lt(executions.startedAt, new Date(now.getTime() - INTERRUPTED_AFTER_MS)),
      ),
    )
    .returning({ id: executions.id });
  if (expired.length || interrupted.length) logger.info('maintenance', { expired: expired.length, interrupted: interrupted.length });
  return { expired: expired.length, interrupted: interrupted.length };
}

export async function startMaintenance(queue: Queue, db: Db): Promise<void> {
  await queue.boss.createQueue(MAINTENANCE_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
  await queue.boss.schedule(MAINTENANCE_QUEUE, '*/5 * * * *', {}, { key: 'sweep' });
  await queue.boss.work(MAINTENANCE_QUEUE, async () => {
    await sweep(db);
  });
}
