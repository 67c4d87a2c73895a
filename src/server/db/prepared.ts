import type { Db } from './client';

/**
 * A statement prepared once per database handle, for the hottest queries: drizzle then skips building
 * its SQL on every call. `build` gets the handle and returns drizzle's `.prepare(name)`.
 */
export function preparedPerDb<P>(build: (db: Db) => P): (db: Db) => P {
  const byDb = new WeakMap<Db, P>();
  return (db) => {
    let statement = byDb.get(db);
    if (!statement) byDb.set(db, (statement = build(db)));
    return statement;
  };
}
