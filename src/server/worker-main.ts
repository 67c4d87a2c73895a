/**
 * `npm run worker`: a process that only works the execution queue, for Postgres deployments (one web
 * process with WORKER_IN_SERVER=false, and as many of these as the load needs, on any machines).
 * SIGTERM/SIGINT drain: running executions finish, no new ones are taken.
 */
import { env } from '@/env';
import { openDatabase } from '@/server/db/client';
import { checkConnectionBudget } from '@/server/db/connection-budget';
import { migrateDatabase } from '@/server/db/migrate';
import { startJobs } from '@/server/jobs';
import { logger } from '@/server/logger';
import { createQueue } from '@/server/queue/queue';

async function main() {
  if (!env.DATABASE_URL) {
    console.error('A worker process needs DATABASE_URL (Postgres). In embedded mode the server works its own queue.');
    process.exit(1);
  }
  const database = await openDatabase({ url: env.DATABASE_URL, max: env.DATABASE_POOL_MAX });
  await checkConnectionBudget(database.db, 1); // before its pool opens more
  await migrateDatabase(database, env.DATABASE_URL);
  const queue = await createQueue(database, {
    heartbeatSeconds: env.QUEUE_HEARTBEAT_SECONDS,
    superviseIntervalSeconds: env.QUEUE_SUPERVISE_SECONDS,
    cronSeconds: env.QUEUE_CRON_SECONDS,
  });
  await startJobs(queue, database.db, { executions: true, concurrency: env.WORKER_CONCURRENCY, prune: { cron: env.PRUNE_SCHEDULE, vacuum: 'if-off' } });
  console.log(`clinflow worker ${process.pid} ready`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: draining the queue worker`);
    await queue.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((e) => {
  console.error(`clinflow worker cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
