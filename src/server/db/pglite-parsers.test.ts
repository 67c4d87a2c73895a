import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from './rows';
import { DRIZZLE_PARSERS, pgliteBesidePlain } from '../../../tests/support/databases';

// every type whose parsing moved to the instance, scalar and array, with a type left alone beside them
const QUERY = `select now() as ts, localtimestamp as ts_plain, current_date as d, interval '1 day 2 hours' as iv, 1.25::numeric as n,
  array[now(), now() - interval '1 day'] as ts_arr, array[localtimestamp] as ts_plain_arr, array[current_date] as d_arr,
  array[interval '3 hours'] as iv_arr, array[1.5::numeric] as n_arr, 'infinity'::timestamptz as inf, 42 as i, '{"a":1}'::jsonb as j`;

describe('result parsing on PGlite, set once on the instance', () => {
  const pair = pgliteBesidePlain();

  // the clock differs between the two databases: compare the kinds and shapes of values, and fixed values exactly
  const shape = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        v instanceof Date
          ? 'Date'
          : Array.isArray(v)
            ? v.map((x) => (x instanceof Date ? 'Date' : typeof x))
            : ['inf', 'i', 'j', 'n', 'iv', 'n_arr', 'iv_arr'].includes(k)
              ? v
              : typeof v,
      ]),
    );

  it('gives drizzle what drizzle asks PGlite for: dates, timestamps, intervals and their arrays as text', async () => {
    const ours = rowsOf<Record<string, unknown>>(await pair.database.db.execute(sql.raw(QUERY)))[0]!;
    const theirs = (await pair.plain.query<Record<string, unknown>>(QUERY, [], { rowMode: 'object', parsers: DRIZZLE_PARSERS })).rows[0]!;
    expect(shape(ours)).toEqual(shape(theirs));
    expect(typeof ours.ts).toBe('string');
    expect(ours.ts_arr).toMatch(/^\{"/);
    // in a transaction too
    const inTx = await pair.database.db.transaction(async (tx) => rowsOf<Record<string, unknown>>(await tx.execute(sql.raw(QUERY)))[0]!);
    expect(shape(inTx)).toEqual(shape(theirs));
  });

  it('gives everyone else (pg-boss) what PGlite gives by default: Date objects, arrays of them', async () => {
    const ours = (await pair.database.pglite!.query<Record<string, unknown>>(QUERY)).rows[0]!;
    const theirs = (await pair.plain.query<Record<string, unknown>>(QUERY)).rows[0]!;
    expect(shape(ours)).toEqual(shape(theirs));
    expect(ours.ts).toBeInstanceOf(Date);
    expect((ours.ts_arr as unknown[])[1]).toBeInstanceOf(Date);
    expect(ours.inf).toBe(Infinity);
    const [first] = await pair.database.pglite!.exec(`${QUERY}; select 1`);
    expect(shape(first!.rows[0] as Record<string, unknown>)).toEqual(shape(theirs));
    // rows as arrays too
    const asArrays = (await pair.database.pglite!.query<unknown[]>(QUERY, [], { rowMode: 'array' })).rows[0]!;
    expect(asArrays[0]).toBeInstanceOf(Date);
    expect((asArrays[5] as unknown[])[0]).toBeInstanceOf(Date);
  });
});
