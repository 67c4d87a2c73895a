import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratedPostgres } from '../../../tests/support/databases';
import type { Database } from './client';
import { connectionBudget, connectionBudgetWarning } from './connection-budget';

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
