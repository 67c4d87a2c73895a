import path from 'node:path';
import type { Database } from './client';

const migrationsFolder = path.join(process.cwd(), 'drizzle');

/**
 * Applies drizzle-kit's migrations. On Postgres several processes may start at once, so the migration
 * runs on one dedicated connection holding an advisory lock.
 */
export async function migrateDatabase(database: Database, url?: string): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // the PGlite migrator asks for PGlite's own database type; ours is the same object under the shared Db type
    await migrate(database.db as never, { migrationsFolder });
    return;
  }
  if (!url) throw new Error('migrateDatabase needs the Postgres URL');
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(727274001)`;
    await migrate(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(727274001)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
