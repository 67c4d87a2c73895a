import { createTestDatabase } from '../../../tests/support/postgres';
import { openDatabase, type Database } from './client';
import { migrateDatabase } from './migrate';

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
  const database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
  return { database, close: () => database.close() };
}
