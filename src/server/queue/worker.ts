import { logger } from '@/server/logger';
import { EXECUTE_QUEUE, EXECUTE_RETRY_LIMIT, type ExecuteJob, type Queue } from './queue';

/** How often an idle loop looks for work it was not woken for (jobs retried after a delay, or sent elsewhere without NOTIFY). */
const IDLE_POLL_SECONDS = 2;

/**
 * Works the execution queue in this process, handing each job to `run` (see server/jobs.ts): `concurrency` independent loops, one execution each, so a slow
 * execution never holds up others. A loop that finished a job fetches again at once (the queue may hold
 * more); one that found nothing sleeps until it is woken — by this process's `queue.wake()` on enqueue, by
 * a NOTIFY on Postgres, one idle loop per job — or until its next poll.
 *
 * A job whose execution already finished (a redelivery after a crash between finishing and acknowledging)
 * runs nothing again; one that was interrupted resumes, keeping the nodes that had finished.
 */
export async function startWorkers(
  queue: Queue,
  concurrency: number,
  run: (executionId: string, opts: { firstDelivery: boolean; lastDelivery: boolean }) => Promise<unknown>,
  idlePollSeconds = IDLE_POLL_SECONDS,
): Promise<void> {
  for (let i = 0; i < concurrency; i++) {
    let loop = '';
    loop = await queue.boss.work<ExecuteJob>(
      EXECUTE_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: idlePollSeconds, notifyPollingIntervalSeconds: idlePollSeconds },
      async ([job]) => {
        queue.loops.started(loop);
        try {
          await run(job!.data.executionId, { firstDelivery: job!.retryCount === 0, lastDelivery: job!.retryCount >= EXECUTE_RETRY_LIMIT });
        } finally {
          queue.loops.finished(loop);
        }
      },
    );
    queue.loops.add(loop);
  }
  await queue.listen();
  logger.info(`working the ${EXECUTE_QUEUE} queue (${concurrency} at a time)`);
}
