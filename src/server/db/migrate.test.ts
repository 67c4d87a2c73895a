import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { migrateDatabase } from './migrate';
import { rowsOf } from './rows';
import { migratedPostgres } from '../../../tests/support/databases';

/** drizzle-kit's list of the migrations in drizzle/. */
const JOURNAL = JSON.parse(readFileSync(path.join(process.cwd(), 'drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; when: number; tag: string }[];
};

describe('the migration journal', () => {
  // drizzle's migrator applies, on a database that has some, only the migrations dated after the last one applied:
  // a migration merged from a branch with an earlier date would be skipped on every existing database
  it('dates each migration after the one before it, and snapshots chain each to the one before', () => {
    const whens = JOURNAL.entries.map((e) => e.when);
    expect(whens).toEqual([...whens].sort((a, b) => a - b));
    expect(new Set(whens).size).toBe(whens.length);
    const snapshots = JOURNAL.entries.map((e) => {
      const file = path.join(process.cwd(), 'drizzle/meta', `${e.tag.slice(0, 4)}_snapshot.json`);
      return JSON.parse(readFileSync(file, 'utf8')) as { id: string; prevId: string };
    });
    for (let i = 1; i < snapshots.length; i++) expect(snapshots[i]!.prevId, JOURNAL.entries[i]!.tag).toBe(snapshots[i - 1]!.id);
  });
});

/** A node record's input of ~200 KB, as a converted bundle is: compressible, stored out of line (TOAST). */
const bigInput = {
  bundle: {
    entry: Array.from({ length: 2_000 }, (_, i) => ({
      resource: { resourceType: 'Observation', id: `obs-${i}`, status: 'final', valueQuantity: { value: i, unit: 'mg' } },
    })),
  },
};

async function storeRecord(database: Database) {
  const [run] = rowsOf<{ id: string }>(
    await database.db.execute(sql`
      with o as (insert into organizations (id, name) values ('org-lz4', 'lz4') returning id),
      p as (insert into pipelines (org_id, name, definition) select id, 'p', '{"nodes":[],"connections":[]}' from o returning id, org_id)
      insert into executions (org_id, pipeline_id, pipeline_version, status, trigger, inputs) select org_id, id, 1, 'completed', 'api', '{}' from p returning id`),
  );
  await database.db.execute(sql`
    insert into execution_nodes (execution_id, node_id, node_type, status, inputs, outputs, logs)
    values (${run!.id}::uuid, 'n', 'pipeline-output', 'completed', ${JSON.stringify(bigInput)}::jsonb, '{}', '[]')`);
  const [row] = rowsOf<{ inputs: unknown; method: string | null }>(
    await database.db.execute(sql`select inputs, pg_column_compression(inputs) as method from execution_nodes where execution_id = ${run!.id}::uuid`),
  );
  return row!;
}

describe('migrations on Postgres', () => {
  let url: string;
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ url, database, close } = await migratedPostgres('migrate', 2));
  });
  afterAll(() => close?.());

  it('run records are compressed with lz4, and read back whole', async () => {
    const row = await storeRecord(database);
    expect(row.method).toBe('lz4');
    expect(row.inputs).toEqual(bigInput);
  });

  it('a second start finds nothing left to apply: every migration recorded once, as before, and the data kept', async () => {
    const applied = async () =>
      rowsOf<{ hash: string; created_at: string }>(await database.db.execute(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`));
    const orgs = async () => rowsOf<{ id: string }>(await database.db.execute(sql`select id from organizations order by id`)).map((o) => o.id);
    await database.db.execute(sql`insert into organizations (id, name) values ('org-second-start', 'second start')`);
    const before = { applied: await applied(), orgs: await orgs() };
    expect(before.applied).toHaveLength(JOURNAL.entries.length);
    expect(before.orgs).toContain('org-second-start');
    await migrateDatabase(database, url);
    expect({ applied: await applied(), orgs: await orgs() }).toEqual(before);
  });
});

describe('migrations on PGlite (built without lz4)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateDatabase(database);
  });
  afterAll(() => database?.close());

  it('keep pglz, and records read back whole', async () => {
    const row = await storeRecord(database);
    expect(row.method).toBe('pglz');
    expect(row.inputs).toEqual(bigInput);
  });
});
