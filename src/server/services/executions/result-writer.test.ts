import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { migratedDatabase } from '../../../../tests/support/databases';
import { writeResult } from './result-writer';

describe.each(['pglite', 'postgres'] as const)('ends of runs committed together, on %s', (kind) => {
  let database: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, close } = await migratedDatabase(kind, 'result_writer'));
    await database.db.execute(sql`create table ends (n integer primary key)`);
  }, 120_000);
  afterAll(() => close());

  it('writes every end given together, and fails only the one that cannot be written', async () => {
    const db = database.db;
    // the first goes alone; the others arrive while it is on its way and go in one transaction, where the duplicate key fails
    const join = () => {
      throw new Error('no end here is batched: they go in one transaction');
    };
    const writes = [1, 2, 3, 2, 4].map((n) => writeResult(db, { statement: sql`insert into ends (n) values (${n})` }, join));
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const rows = rowsOf<{ n: number }>(await db.execute(sql`select n from ends order by n`));
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3, 4]);
  });
});
