import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { rowsOf } from './rows';
import { DRIZZLE_PARSERS, pgliteBesidePlain } from '../../../tests/support/databases';

/** A statement with parameters and values of several kinds, sent as drizzle sends it. */
const statement = (n: number) =>
  sql`select ${n}::int as n, ${'text ' + n} as t, ${JSON.stringify({ a: n })}::jsonb as j, ${new Date(Date.UTC(2026, 0, 1)).toISOString()}::timestamptz as ts,
    ${1.5}::numeric as num, array[${n}::int, 2] as arr, null::text as nothing`;

/** Names of the statements prepared in the database's session. */
const preparedNames = async (database: Database) =>
  rowsOf<{ name: string }>(await database.db.execute(sql`select name from pg_prepared_statements where name like ${'clinflow_%'}`)).map((r) => r.name);

describe('repeated statements on PGlite, prepared', () => {
  const pair = pgliteBesidePlain();

  it('answers a statement prepared after its third time as PGlite answers it unprepared, in both row modes', async () => {
    const before = await preparedNames(pair.database);
    const ours = [];
    for (let n = 1; n <= 5; n++) ours.push(rowsOf<Record<string, unknown>>(await pair.database.db.execute(statement(n)))[0]);
    expect((await preparedNames(pair.database)).length).toBe(before.length + 1);
    const query = new PgDialect().sqlToQuery(statement(5));
    const theirs = (await pair.plain.query<Record<string, unknown>>(query.sql, query.params, { parsers: DRIZZLE_PARSERS })).rows[0];
    expect(ours[4]).toEqual(theirs);
    expect(ours.map((r) => r!.n)).toEqual([1, 2, 3, 4, 5]);
    // drizzle's selects ask for arrays of values
    const table = sql.raw('pg_catalog.pg_type');
    for (let i = 0; i < 4; i++) {
      const rows = await pair.database.db.execute(sql`select typname, oid::int from ${table} where typname = ${'int4'}`);
      expect(rowsOf(rows)).toEqual([{ typname: 'int4', oid: 23 }]);
    }
  });

  it('reports a failing statement with its SQLSTATE, and goes on working', async () => {
    await pair.database.db.execute(sql`create table uniq (id int primary key)`);
    for (let id = 1; id <= 3; id++) await pair.database.db.execute(sql`insert into uniq (id) values (${id})`);
    const error = await pair.database.db.execute(sql`insert into uniq (id) values (${2})`).then(
      () => null,
      (e: { cause?: { code?: string } }) => e,
    );
    expect(error?.cause?.code).toBe('23505');
    await pair.database.db.execute(sql`insert into uniq (id) values (${4})`);
    expect(rowsOf(await pair.database.db.execute(sql`select count(*)::int as n from uniq`))).toEqual([{ n: 4 }]);
  });

  it('answers right after a table it reads has changed', async () => {
    await pair.database.db.execute(sql`create table changing (id int, a text)`);
    await pair.database.db.execute(sql`insert into changing values (1, 'one')`);
    const read = () => pair.database.db.execute(sql`select * from changing where id = ${1}`).then((r) => rowsOf(r));
    for (let i = 0; i < 4; i++) expect(await read()).toEqual([{ id: 1, a: 'one' }]);
    await pair.database.db.execute(sql`alter table changing add column b text default 'bee'`);
    expect(await read()).toEqual([{ id: 1, a: 'one', b: 'bee' }]);
    expect(await read()).toEqual([{ id: 1, a: 'one', b: 'bee' }]);
  });

  it('keeps what prepared statements wrote in a data folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-prepared-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.db.execute(sql`create table kept (id int)`);
      for (let id = 1; id <= 5; id++) await first.db.execute(sql`insert into kept values (${id})`);
      await first.close();
      const again = await openDatabase({ dataDir: dir });
      expect(rowsOf(await again.db.execute(sql`select count(*)::int as n from kept`))).toEqual([{ n: 5 }]);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
