import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { migrateDatabase } from './migrate';
import { rowsOf } from './rows';

/** The migrations folder as it was before `tag`: the same files, the journal cut before it. */
function folderBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-migrations-'));
  fs.cpSync(path.join(process.cwd(), 'drizzle'), dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag === tag),
  );
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

// Migration 0019: pipelines deployed before it publish the version they ran (their current one); others none.
describe('migration 0019 (deployed_version)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: folderBefore('0019_deployed_version') });
    await database.db.execute(sql`insert into organizations (id, name) values ('org-0019', 'o')`);
    await database.db.execute(sql`
      insert into pipelines (org_id, name, definition, status, version) values
        ('org-0019', 'live', '{"nodes":[],"connections":[]}', 'deployed', 4),
        ('org-0019', 'draft', '{"nodes":[],"connections":[]}', 'active', 3)`);
    await migrateDatabase(database);
  });
  afterAll(() => database.close());

  it('sets deployed_version to the current version of deployed pipelines, and leaves it null for the others', async () => {
    const rows = rowsOf<{ name: string; version: number; deployed_version: number | null }>(
      await database.db.execute(sql`select name, version, deployed_version from pipelines order by name`),
    );
    expect(rows).toEqual([
      { name: 'draft', version: 3, deployed_version: null },
      { name: 'live', version: 4, deployed_version: 4 },
    ]);
  });
});
