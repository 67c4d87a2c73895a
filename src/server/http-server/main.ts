/**
 * `npm start`: the server, bundled by scripts/build-server.mjs (not run through tsx). On Postgres it runs
 * WEB_CONCURRENCY processes (default: the number of cores) sharing the port through node:cluster, each a
 * web server and, unless WORKER_IN_SERVER=false, a queue worker; the primary prepares the database once and
 * keeps the set full. The embedded database belongs to one process, so on PGlite there is one.
 */
import cluster from 'node:cluster';
import type http from 'node:http';
import os from 'node:os';
import { env } from '@/env';
import { openDatabase } from '@/server/db/client';
import { checkConnectionBudget } from '@/server/db/connection-budget';
import { logger } from '@/server/logger';
import { getRuntime, prepareDatabase } from '@/server/runtime';
import { startServer } from '@/server/start';
import { createHttpServer } from './server';

/** How long a stopping process waits for requests in flight and running executions. */
const DRAIN_MS = 10_000;

function processCount(): number {
  if (!env.DATABASE_URL) {
    if ((env.WEB_CONCURRENCY ?? 1) > 1) logger.warn('WEB_CONCURRENCY is ignored on the embedded database: one process owns it (set DATABASE_URL for several)');
    return 1;
  }
  return env.WEB_CONCURRENCY ?? os.availableParallelism();
}

async function primary(requested: number): Promise<void> {
  let count = requested;
  try {
    const database = await openDatabase({ url: env.DATABASE_URL! });
    // first, on the pool's first connection: the others it opens would count as other processes'; one per core (no
    // WEB_CONCURRENCY) becomes as many as Postgres accepts
    count = await checkConnectionBudget(database.db, requested, env.WEB_CONCURRENCY === undefined);
    await prepareDatabase(database);
    await database.close();
  } catch (e) {
    console.error(`\nClinflow cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
  let stopping = false;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error(`server process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    cluster.fork();
  });
  for (let i = 0; i < count; i++) cluster.fork();
  let ready = 0;
  cluster.on('listening', () => {
    if (++ready === count) console.log(`Clinflow listening on http://${env.HOSTNAME}:${env.PORT} (${count} process${count === 1 ? '' : 'es'})`);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const w of workers) {
      w?.once('exit', () => --left === 0 && process.exit(0));
      w?.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** `announce`: this is the only process (no primary): it says what the primary would, the connection budget included. */
async function serve(announce: boolean): Promise<void> {
  if (announce && env.DATABASE_URL) await budgetAlone();
  await startServer();
  let server: http.Server;
  try {
    server = await createHttpServer({ dir: process.cwd(), port: env.PORT, hostname: env.HOSTNAME });
  } catch (e) {
    console.error(`\nClinflow cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
  server.on('error', (e) => {
    console.error(`\nClinflow cannot listen on ${env.HOSTNAME}:${env.PORT}: ${e.message}\n`);
    process.exit(1);
  });
  server.listen(env.PORT, env.HOSTNAME, () => {
    if (announce) console.log(`Clinflow listening on http://${env.HOSTNAME}:${env.PORT}`);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // no new connections; idle keep-alive ones closed; requests in flight (and their streams) may finish
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await Promise.race([closed, delay(DRAIN_MS)]);
    server.closeAllConnections();
    const rt = await getRuntime();
    await Promise.race([rt.queue?.stop(), delay(DRAIN_MS)]);
    await rt.database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

/** The connection budget of a lone process, asked before it opens its own (they would count as others'). */
async function budgetAlone(): Promise<void> {
  const database = await openDatabase({ url: env.DATABASE_URL!, max: 1 }).catch(() => undefined);
  if (!database) return; // the runtime's start says why it cannot reach the database
  await checkConnectionBudget(database.db, 1);
  await database.close().catch(() => undefined);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

const count = processCount();
void (cluster.isPrimary && count > 1 ? primary(count) : serve(cluster.isPrimary));
