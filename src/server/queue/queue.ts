import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite } from 'pg-boss';
import type { Database, Db } from '@/server/db/client';
import { logger } from '@/server/logger';

export const EXECUTE_QUEUE = 'execute-pipeline';
/** Cron jobs of deployed pipelines with a schedule trigger, one schedule per pipeline (key = its id). */
export const SCHEDULE_QUEUE = 'pipeline-schedule';

export interface ScheduleJob {
  pipelineId: string;
  orgId: string;
}

export interface ExecuteJob {
  executionId: string;
}

export interface QueueOptions {
  /** Seconds without a heartbeat before a job of a dead worker is handed to another (>= 10). */
  heartbeatSeconds: number;
  /** How often the monitor looks for such jobs. */
  superviseIntervalSeconds: number;
  /** How often due cron schedules become jobs. */
  cronSeconds: number;
}

function timing(opts: QueueOptions) {
  return {
    superviseIntervalSeconds: opts.superviseIntervalSeconds,
    monitorIntervalSeconds: opts.superviseIntervalSeconds,
    cronWorkerIntervalSeconds: opts.cronSeconds,
    cronMonitorIntervalSeconds: opts.cronSeconds,
  };
}

export interface Queue {
  boss: PgBoss;
  /** Puts an execution on the queue inside `tx`, the transaction that wrote its row. */
  enqueue(tx: Db, executionId: string): Promise<void>;
  /** Wakes this process's workers at once (they would otherwise wait for their next poll). */
  wake(): void;
  workerIds: string[];
  stop(): Promise<void>;
}

/**
 * pg-boss on our database: inside the embedded process on PGlite, shared by every web and worker
 * process on Postgres. Jobs of a killed worker are retried once their heartbeat stops.
 */
export async function createQueue(database: Database, opts: QueueOptions): Promise<Queue> {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite!), backend: 'pglite', ...timing(opts) })
      : new PgBoss({ connectionString: database.url!, max: 5, useListenNotify: true, ...timing(opts) });
  boss.on('error', (e) => logger.error('queue error', { error: String(e) }));
  await boss.start();
  await boss.createQueue(EXECUTE_QUEUE, {
    heartbeatSeconds: opts.heartbeatSeconds,
    retryLimit: 5,
    retryDelay: 1,
    expireInSeconds: 60 * 60,
    notify: database.kind === 'postgres',
  });
  await boss.createQueue(SCHEDULE_QUEUE, { retryLimit: 0, expireInSeconds: 60 * 60 });
  const queue: Queue = {
    boss,
    workerIds: [],
    async enqueue(tx, executionId) {
      await boss.send(EXECUTE_QUEUE, { executionId } satisfies ExecuteJob, { db: fromDrizzle(tx as never, sql) });
    },
    wake() {
      for (const id of queue.workerIds) boss.notifyWorker(id);
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 30_000, close: database.kind === 'postgres' });
    },
  };
  return queue;
}
