import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { rowsOf } from './rows';
import { migratedPostgres } from '../../../tests/support/databases';

/** The texts of the statements prepared on the connection that runs this (pg_prepared_statements is per session). */
async function preparedTexts(db: Database['db']): Promise<string[]> {
  return rowsOf<{ statement: string }>(await db.execute(sql`select statement from pg_prepared_statements`)).map((r) => r.statement);
}

describe('statements sent again and again are prepared (Postgres)', () => {
  let database: Database;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    // one connection, so every statement and pg_prepared_statements share a session
    ({ database, close } = await migratedPostgres('hot', 1));
  });
  afterAll(() => close?.());

  it('from its third time a text is prepared, and answers as before', async () => {
    const sums: number[] = [];
    for (let i = 0; i < 5; i++) sums.push(rowsOf<{ n: number }>(await database.db.execute(sql`select ${i}::int + 40 as n`))[0]!.n);
    expect(sums).toEqual([40, 41, 42, 43, 44]);
    expect(await preparedTexts(database.db)).toContain('select $1::int + 40 as n');
  });

  it('inside transactions and savepoints too; a rolled-back one leaves nothing behind', async () => {
    await database.db.execute(sql`create table hot_t (id int primary key, v text)`);
    for (let i = 0; i < 4; i++) {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into hot_t (id, v) values (${i}, ${`row ${i}`})`);
        await tx.transaction(async (inner) => {
          await inner.execute(sql`update hot_t set v = v || ${'!'} where id = ${i}`);
        });
      });
    }
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into hot_t (id, v) values (${9}, ${'row 9'})`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const rows = rowsOf<{ id: number; v: string }>(await database.db.execute(sql`select id, v from hot_t order by id`));
    expect(rows).toEqual([0, 1, 2, 3].map((id) => ({ id, v: `row ${id}!` })));
    const prepared = await preparedTexts(database.db);
    expect(prepared).toContain('insert into hot_t (id, v) values ($1, $2)');
    expect(prepared).toContain('update hot_t set v = v || $1 where id = $2');
  });

  it('a prepared statement whose table changed is prepared again, not an error', async () => {
    await database.db.execute(sql`create table hot_c (id int, a int)`);
    const read = () => database.db.execute(sql`select * from hot_c where id = ${1}`);
    for (let i = 0; i < 4; i++) await read();
    await database.db.execute(sql`alter table hot_c add column b text`);
    await database.db.execute(sql`insert into hot_c values (1, 2, 'x')`);
    expect(rowsOf(await read())).toEqual([{ id: 1, a: 2, b: 'x' }]);
  });
});
