import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { organizations } from '@/server/db/schema';
import { acquireOrgSlot } from './org-slots';

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const signal = new AbortController().signal;

// Two separate connections pools to one Postgres database, as two server processes have: the slots are shared.
describe('organization slots shared between processes (Postgres)', () => {
  const name = `clinflow_slots_${process.pid}`;
  let a: Database;
  let b: Database;
  beforeAll(async () => {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    a = await openDatabase({ url: url.toString() });
    await migrateDatabase(a, url.toString());
    b = await openDatabase({ url: url.toString() });
    await a.db.insert(organizations).values([
      { id: 'org-1', name: 'one' },
      { id: 'org-2', name: 'two' },
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('hands out exactly `limit` slots between the two, per organization; a waiting taker gets the next one freed', async () => {
    const taken = await Promise.all(Array.from({ length: 8 }, (_, i) => acquireOrgSlot(i % 2 ? a.db : b.db, 'org-1', 'export', 5, { signal })));
    expect(taken.filter(Boolean)).toHaveLength(5);
    // another organization has its own five
    expect(await acquireOrgSlot(b.db, 'org-2', 'export', 5, { signal })).not.toBeNull();
    const waiting = acquireOrgSlot(a.db, 'org-1', 'export', 5, { signal, waitUntil: Date.now() + 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    await taken.find(Boolean)!();
    const got = await waiting;
    expect(got).not.toBeNull();
    expect(await acquireOrgSlot(b.db, 'org-1', 'export', 5, { signal })).toBeNull();
    for (const release of [...taken.filter(Boolean).slice(1), got]) await release!();
    expect(await acquireOrgSlot(b.db, 'org-1', 'export', 5, { signal })).not.toBeNull();
  });

  it('frees the slots of a holder that stopped renewing them once their lease runs out', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => acquireOrgSlot(a.db, 'org-2', 'dead', 5, { signal })));
    expect(held.every(Boolean)).toBe(true);
    expect(await acquireOrgSlot(b.db, 'org-2', 'dead', 5, { signal })).toBeNull();
    // the process holding them died: nobody renews, the leases run out
    await a.db.execute(sql`update org_slots set expires_at = now() - interval '1 second' where name = 'dead'`);
    expect(await acquireOrgSlot(b.db, 'org-2', 'dead', 5, { signal })).not.toBeNull();
  });
});
