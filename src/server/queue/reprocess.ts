import { sql } from 'drizzle-orm';
import { fromDrizzle } from 'pg-boss';
import type { Db } from '@/server/db/client';
import type { Queue } from './queue';

/** Batches of a bulk reprocess (services/executions/reprocess-*.ts): one job per batch of runs. */
export const REPROCESS_QUEUE = 'reprocess-executions';
/** Batches one process works at once (each retries a few runs at a time: reprocess-batch.ts). */
const LOCAL_CONCURRENCY = 2;

export interface ReprocessBatchJob {
  jobId: string;
  batch: number;
}

/** The jobs of `batches`, written in `tx` (the transaction that wrote the bulk reprocess), so both exist or neither. */
export async function enqueueReprocessBatches(queue: Queue, tx: Db, jobId: string, batches: number[]): Promise<void> {
  if (batches.length === 0) return;
  const jobs = batches.map((batch) => ({ data: { jobId, batch } satisfies ReprocessBatchJob }));
  // pg-boss's writes inside our transaction: fromDrizzle's signature cannot name the driver's transaction type (as in queue.ts)
  await queue.boss.insert(REPROCESS_QUEUE, jobs, { db: fromDrizzle(tx as never, sql) });
}

/** Works the reprocess queue with `run`; a batch that throws is delivered again (its finished runs are not retried twice). */
export async function startReprocessWorker(queue: Queue, run: (job: ReprocessBatchJob) => Promise<void>): Promise<void> {
  await queue.boss.createQueue(REPROCESS_QUEUE, { retryLimit: 3, retryDelay: 5, expireInSeconds: 60 * 60, heartbeatSeconds: 60 });
  // createQueue drops pg-boss's cached settings of the queue; reading them back now keeps a first insert inside our
  // transaction from waiting, on PGlite's one connection, for pg-boss's own (see createQueue in queue.ts)
  await queue.boss.findJobs(REPROCESS_QUEUE, { id: '00000000-0000-4000-8000-000000000000' });
  await queue.boss.work<ReprocessBatchJob>(REPROCESS_QUEUE, { batchSize: 1, localConcurrency: LOCAL_CONCURRENCY, pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) await run(job.data);
  });
}
