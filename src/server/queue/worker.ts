import type { Db } from '@/server/db/client';
import { logger } from '@/server/logger';
import { runExecution } from '@/server/services/executions/run-execution';
import { EXECUTE_QUEUE, type ExecuteJob, type Queue } from './queue';

/**
 * Works the execution queue in this process. A job whose execution already finished (a redelivery after
 * a crash between finishing and acknowledging) is acknowledged without running anything again; one that
 * was interrupted resumes, keeping the nodes that had finished.
 */
export async function startWorkers(queue: Queue, db: Db, concurrency: number): Promise<void> {
  const id = await queue.boss.work<ExecuteJob>(
    EXECUTE_QUEUE,
    // independent fetch loops, one execution each: a slow execution never holds up the others of a batch
    { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5 },
    async (jobs) => {
      await Promise.all(
        jobs.map(async (job) => {
          // nothing happens for an execution that already finished (runExecution does not claim it)
          await runExecution(db, job.data.executionId);
        }),
      );
    },
  );
  queue.workerIds.push(id);
  logger.info(`working the ${EXECUTE_QUEUE} queue (${concurrency} at a time)`);
}
