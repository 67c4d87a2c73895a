import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { env } from '@/env';
import { preparingHotStatements } from './hot-statements';
import { shareParsers } from './pglite-parsers';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DbKind;
  /** The PGlite instance (embedded) as everyone but drizzle sees it (see pglite-parsers.ts), or the Postgres URL: for pg-boss. */
  pglite?: import('@electric-sql/pglite').PGlite;
  url?: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… ; when absent PGlite is used. */
  url?: string;
  /** PGlite folder, or `memory://` for an in-memory database (tests). */
  dataDir?: string;
  /** Pool size of postgres.js. */
  max?: number;
  /** A PGlite data folder written by `dumpDataDir` to start from instead of an empty one (tests: a migrated snapshot). */
  loadDataDir?: Blob;
}

/** Seconds before a pooled connection that failed connects again: 50 ms doubling to 0.5 s (postgres.js's default reaches 20 s). */
export function reconnectDelay(failures: number): number {
  return Math.min(0.05 * 2 ** failures, 0.5);
}

/** Opens a database without any process-wide state (tests open as many as they like). */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    // a database that does not answer is an error within 5 s (a 503 to the caller), not a 30 s wait (postgres.js's
    // default); a connection that failed is tried again within half a second, not after postgres.js's backoff, which
    // grows with every failure of the pool to 20 s — after a restart of a few seconds, requests waited that long
    const client = postgres(opts.url, { max: opts.max ?? 10, onnotice: () => {}, connect_timeout: 5, backoff: reconnectDelay });
    // each driver's database is a PgDatabase of its own result type; services use the surface both share (Db)
    const db = drizzle(preparingHotStatements(client), { schema }) as unknown as Db;
    return { db, kind: 'postgres', url: opts.url, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dataDir = opts.dataDir ?? 'memory://';
  let releaseLock = () => {};
  if (!dataDir.startsWith('memory://')) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataDir(dataDir);
  }
  const client = new PGlite({ dataDir: dataDir.startsWith('memory://') ? undefined : dataDir, loadDataDir: opts.loadDataDir });
  await client.waitReady;
  const { forDrizzle, forOthers } = shareParsers(client);
  // as above: PGlite's result type differs from postgres.js's, the query surface services use does not
  const db = drizzle(forDrizzle, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: forOthers,
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

/**
 * PGlite is one process's database: a second process opening the same folder corrupts it. A lock file
 * holding the owner's pid makes the second process refuse with a clear message instead.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'clinflow.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      const release = () => fs.rmSync(lockPath, { force: true });
      process.once('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database in ${path.resolve(dataDir)} is already in use by another Clinflow process (pid ${owner}). ` +
            'Stop that process, point DATA_DIR at another folder, or set DATABASE_URL to share a Postgres database between processes.',
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock of a process that is gone
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

declare global {
  // one database per process, kept across Next's module reloads in development
  var clinflowDb: Promise<Database> | undefined;
}
const globalForDb = globalThis;

/** The process-wide database, opened on first use (never at module load: `next build` imports routes). */
export function getDatabase(): Promise<Database> {
  globalForDb.clinflowDb ??= openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, max: env.DATABASE_POOL_MAX }).catch((e) => {
    globalForDb.clinflowDb = undefined;
    throw e;
  });
  return globalForDb.clinflowDb;
}
