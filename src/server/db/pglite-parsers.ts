import { types, type PGlite, type Transaction } from '@electric-sql/pglite';
import { preparing, type Query } from './pglite-prepared';

/**
 * Result parsing on PGlite, set once instead of per statement. drizzle passes PGlite its own parsers with every
 * statement (dates, timestamps, intervals and their arrays kept as text), and PGlite 0.5.16 answers each such
 * statement by copying its whole map of ~320 type parsers to merge them in: ~80 µs a statement, as much as a
 * `select 1` costs without them. Here the instance's own parsers are drizzle's, drizzle's statements go without
 * theirs, and the other user of the instance (pg-boss) gets values of those types as PGlite's defaults make them
 * (Date objects), converted in its results. drizzle's repeated statements outside transactions also go prepared
 * (pglite-prepared.ts).
 */

const asText = (value: string) => value;
/** The types drizzle reads as text: timestamp, timestamptz, interval, date and the arrays of those and of numeric. */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

/** Arrays whose elements' default parser is replaced here, and their element types. */
const ARRAY_OF: Record<number, number> = { 1115: types.TIMESTAMP, 1185: types.TIMESTAMPTZ, 1182: types.DATE };

type Options = { parsers?: unknown } | undefined;
type Parser = (value: string, typeId: number) => unknown;
interface Results {
  rows: Record<string, unknown>[] | unknown[][];
  fields: { name: string; dataTypeID: number }[];
}
interface Querying {
  query(query: string, params?: unknown[], options?: Options): Promise<Results>;
  exec(query: string, options?: Options): Promise<Results[]>;
}

/** `target` with some of its methods replaced; everything else as it is, on the target itself. */
function overriding<T extends object>(target: T, methods: Record<string, unknown>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === 'string' && prop in methods) return methods[prop];
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

/** `query` without the parsers a statement brings. */
function withoutParsers(query: Querying['query']): Querying['query'] {
  return (text, params, given) => query(text, params, given?.parsers ? { ...given, parsers: undefined } : given);
}

/** A result's values of drizzle's text types made as PGlite's default parsers make them (in place). */
function withDefaults(result: Results, defaults: Record<number, Parser | undefined>): Results {
  const converted = result.fields.flatMap((f, i) => (defaults[f.dataTypeID] ? [{ ...f, i, parse: defaults[f.dataTypeID]! }] : []));
  for (const row of converted.length ? result.rows : []) {
    for (const f of converted) {
      const key = Array.isArray(row) ? f.i : f.name;
      const value = (row as Record<string | number, unknown>)[key];
      if (typeof value === 'string') (row as Record<string | number, unknown>)[key] = f.parse(value, f.dataTypeID);
    }
  }
  return result;
}

/**
 * Sets drizzle's parsers on a ready PGlite instance. Gives the instance for drizzle (its per-statement parsers
 * dropped, in transactions too) and the instance for everyone else (values as PGlite's defaults make them).
 */
export function shareParsers(client: PGlite): { forDrizzle: PGlite; forOthers: PGlite } {
  const scalar = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((oid) => [oid, client.parsers[oid] as Parser | undefined]));
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = asText;
  // an array's default parser reads its elements with the instance's parser, now text for dates and timestamps:
  // those elements are made again with the default
  const defaults: Record<number, Parser | undefined> = {};
  for (const oid of DRIZZLE_TEXT_TYPES) {
    const parse = scalar[oid];
    const element = ARRAY_OF[oid] === undefined ? undefined : scalar[ARRAY_OF[oid]];
    if (parse) defaults[oid] = element ? (value, typeId) => deep(parse(value, typeId), (v) => element(v, ARRAY_OF[oid]!)) : parse;
  }
  // PGlite's query() overloads, seen through the one signature drizzle calls
  const own = client as unknown as Querying;
  const transaction = client.transaction.bind(client) as (fn: (tx: Transaction) => unknown, ...rest: unknown[]) => unknown;
  const forDrizzle = overriding(client, {
    // drizzle's repeated statements outside transactions go prepared (see pglite-prepared.ts)
    query: withoutParsers(preparing(client, own.query.bind(own) as Query) as Querying['query']),
    transaction: (fn: (tx: Transaction) => unknown, ...rest: unknown[]) =>
      transaction(
        // a transaction's query() has the instance's overloads: seen through the same signature (Querying)
        (tx) => fn(overriding(tx, { query: withoutParsers((text, params, options) => (tx as unknown as Querying).query(text, params, options)) })),
        ...rest,
      ),
  });
  const forOthers = overriding(client, {
    query: async (query: string, params?: unknown[], options?: Options) => withDefaults(await own.query(query, params, options), defaults),
    exec: async (query: string, options?: Options) => (await own.exec(query, options)).map((r) => withDefaults(r, defaults)),
  });
  return { forDrizzle, forOthers };
}

/** Every string inside nested arrays made by `f`. */
function deep(value: unknown, f: (v: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => deep(v, f));
  return typeof value === 'string' ? f(value) : value;
}
