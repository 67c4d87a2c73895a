import type { Db } from '@/server/db/client';
import { startMaintenance } from '@/server/queue/maintenance';
import { startPruner } from '@/server/queue/pruner';
import { startReprocessWorker } from '@/server/queue/reprocess';
import { startScheduleWorker } from '@/server/queue/schedule-worker';
import { startWorkers } from '@/server/queue/worker';
import { EXECUTE_QUEUE, type Queue } from '@/server/queue/queue';
import { serviceHost } from '@/server/services/compose';
import { runExecution } from '@/server/services/executions/run-execution';
import { runReprocessBatch } from '@/server/services/executions/reprocess-batch';
import { runScheduled } from '@/server/services/executions/scheduled';
import { sweep } from '@/server/services/executions/sweep';
import { prune } from '@/server/services/retention/prune';

/**
 * What the queue's jobs do, wired in one place: the queue only carries jobs, the services do the work,
 * and neither imports the other; runs call what the services' host lends (services/compose.ts). `executions: false`
 * leaves the execution queue to worker processes.
 */
export interface JobOptions {
  executions: boolean;
  concurrency: number;
  /** The pruner's cron (PRUNE_SCHEDULE), and whether it VACUUMs after a pass (PGlite, which has no autovacuum). */
  prune: { cron: string; vacuum: boolean | 'if-off' };
}

export async function startJobs(queue: Queue, db: Db, opts: JobOptions): Promise<void> {
  const rt = { db, host: serviceHost };
  if (opts.executions) await startWorkers(queue, opts.concurrency, (id, run) => runExecution(rt, id, run));
  await startScheduleWorker(queue, (job) => runScheduled(rt, queue.triggers, job));
  await startReprocessWorker(queue, (job) => runReprocessBatch(rt, job));
  await startMaintenance(queue, () => sweep(db, new Date(), EXECUTE_QUEUE));
  await startPruner(queue, { cron: opts.prune.cron, heartbeatSeconds: 30 }, (job) =>
    prune(db, { jobId: job.id, signal: job.signal, vacuum: opts.prune.vacuum }),
  );
}
