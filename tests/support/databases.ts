import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { freshPglite } from './pglite-snapshot';
import { createTestDatabase } from './postgres';
import { openDatabase, type Database } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';

/** A fresh database on the machine's Postgres for one test file, opened (a pool of `max`) and migrated; `close` drops it. */
export async function migratedPostgres(label: string, max?: number): Promise<{ url: string; database: Database; close(): Promise<void> }> {
  const test = await createTestDatabase(label);
  let database: Database | undefined;
  try {
    database = await openDatabase({ url: test.url, max });
    await migrateDatabase(database, test.url);
  } catch (e) {
    await database?.close();
    await test.drop();
    throw e;
  }
  const opened = database;
  return {
    url: test.url,
    database: opened,
    async close() {
      await opened.close();
      await test.drop();
    },
  };
}

/** A migrated database for one test file: a fresh one on the machine's Postgres, or an in-memory PGlite; `close` drops or closes it. */
export async function migratedDatabase(kind: 'postgres' | 'pglite', label: string, max?: number): Promise<{ database: Database; close(): Promise<void> }> {
  if (kind === 'postgres') return migratedPostgres(label, max);
  const database = await freshPglite();
  return { database, close: () => database.close() };
}

/** What drizzle passes PGlite with each statement (drizzle-orm/pglite/session.js): dates, timestamps, intervals and their arrays as text. */
export const DRIZZLE_PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, (v: string) => v]),
);

/** For one test file: our in-memory PGlite database beside a plain PGlite to compare it with, open during its tests. */
export function pgliteBesidePlain(): { database: Database; plain: PGlite } {
  const pair = {} as { database: Database; plain: PGlite };
  beforeAll(async () => {
    pair.database = await freshPglite('empty');
    pair.plain = new PGlite();
    await pair.plain.waitReady;
  }, 60_000);
  afterAll(async () => {
    await pair.database?.close();
    await pair.plain?.close();
  });
  return pair;
}
