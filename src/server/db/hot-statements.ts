import type { Sql } from 'postgres';
import { PreparedTexts } from './prepared-texts';

type Options = { prepare?: boolean } & Record<string, unknown>;

/**
 * The postgres.js client drizzle runs on, with the texts it sends again and again prepared. drizzle sends every
 * statement but its `.prepare(name)` ones as `unsafe(text, params, { prepare: false })`, so Postgres parsed and
 * planned each call anew: per async execution the queue job's insert (parse and plan 0.9 ms), the admission
 * (`start_execution`, 0.2 ms) and the result's write (0.5 ms), against well under 0.1 ms to bind a prepared one.
 * A text seen three times (see PreparedTexts: at most 100, never several statements in one) is sent with
 * `prepare: true` instead — postgres.js then prepares it once per connection, and prepares it again should
 * Postgres drop it. Transactions and savepoints hand out clients of their own; those are wrapped the same way.
 */
export function preparingHotStatements(client: Sql, texts = new PreparedTexts('clinflow')): Sql {
  const wrap = (sql: Sql): Sql =>
    new Proxy(sql, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop === 'unsafe') {
          return (text: string, args?: unknown[] | Options, options?: Options) => {
            if (args !== undefined && !Array.isArray(args)) [args, options] = [[], args];
            const hot = (args?.length ?? 0) > 0 && texts.nameOf(text) !== undefined;
            // passed through as postgres.js received them; its overloads cannot be named from a Proxy's apply
            return target.unsafe(text, args as never, (hot ? { ...options, prepare: true } : options) as never);
          };
        }
        if (prop === 'begin' || prop === 'savepoint') {
          // begin(fn) / begin(options, fn); savepoint(fn) / savepoint(name, fn)
          return (...a: unknown[]) => {
            const last = a.length - 1;
            const fn = a[last] as (tx: Sql) => unknown;
            if (typeof fn === 'function') a[last] = (tx: Sql) => fn(wrap(tx));
            return (value as (...x: unknown[]) => unknown).apply(target, a);
          };
        }
        return value;
      },
    });
  return wrap(client);
}
