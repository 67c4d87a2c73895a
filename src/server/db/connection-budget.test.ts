import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratedPostgres } from '../../../tests/support/databases';
import type { Database } from './client';
import { connectionBudget, connectionBudgetWarning, processesThatFit } from './connection-budget';

let database: Database;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ database, close } = await migratedPostgres('budget', 2));
});
afterAll(() => close?.());

// a suite of REST tests hit Postgres's "too many clients" (max_connections 100) and answered 503: each server
// process holds up to 17, and on a many-core machine WEB_CONCURRENCY (default: the cores) processes start
it("reads what the machine's Postgres accepts and what is open, and warns when the processes would not fit", async () => {
  const now = await connectionBudget(database.db, 1, 17);
  expect(now.accepted).toBeGreaterThan(0);
  expect(now.inUse).toBeGreaterThanOrEqual(0);
  expect(connectionBudgetWarning({ ...now, inUse: 0, processes: 1, perProcess: now.accepted })).toBeNull();

  const many = connectionBudgetWarning({ ...now, inUse: 0, processes: 16, perProcess: 17 });
  if (now.accepted >= 16 * 17) expect(many).toBeNull();
  else expect(many).toMatch(new RegExp(`16 processes × 17 connections .* = 272, with 0 already open, is more than the ${now.accepted} Postgres accepts`));
  // what is open already counts: the last connection that fits, then one more
  expect(connectionBudgetWarning({ ...now, processes: 1, perProcess: now.accepted - now.inUse })).toBeNull();
  expect(connectionBudgetWarning({ ...now, processes: 1, perProcess: now.accepted - now.inUse + 1 })).toMatch(/Lower WEB_CONCURRENCY or DATABASE_POOL_MAX/);
});

it('one process per core when no count is chosen, as many as Postgres still accepts, at least one', () => {
  // a 16-core machine, a default Postgres (97 for ordinary roles), 17 connections a process
  expect(processesThatFit(16, { accepted: 97, inUse: 0, perProcess: 17 })).toBe(5);
  expect(processesThatFit(16, { accepted: 97, inUse: 30, perProcess: 17 })).toBe(3);
  expect(processesThatFit(16, { accepted: 97, inUse: 90, perProcess: 17 })).toBe(1); // one still starts, and warns
  expect(processesThatFit(2, { accepted: 997, inUse: 0, perProcess: 17 })).toBe(2); // never more than the cores
});
