import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/server/db/client';
import { migratedPostgres } from '../../../tests/support/databases';
import { createRateLimiter } from './rate-limit';

// Two connection pools to one Postgres database, as two server processes have: one budget between them.
describe('rate limits shared between processes (Postgres)', () => {
  let a: Database;
  let b: Database;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const test = await migratedPostgres('ratelimit');
    ({ database: a, close } = test);
    b = await openDatabase({ url: test.url });
  });
  afterAll(async () => {
    await b?.close();
    await close?.();
  });

  it("spends exactly the window's points across both, counts down, and starts a new window when it ends", async () => {
    const opts = { points: 5, durationSeconds: 1, name: 'test' };
    const [one, two] = [createRateLimiter(a, opts), createRateLimiter(b, opts)];
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await (i % 2 ? two : one).consume('org:1'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(results.slice(0, 5).map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(results[5]!.retryAfter).toBe(1);
    // another key has its own budget
    expect((await one.consume('org:2')).remaining).toBe(4);
    expect((await two.peek('org:1')).allowed).toBe(false);
    // peek tells whether one more may be spent: not once the last point is gone
    for (let i = 0; i < 4; i++) await one.consume('org:3');
    expect((await two.peek('org:3')).allowed).toBe(true);
    await two.consume('org:3');
    expect((await one.peek('org:3')).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await two.consume('org:1');
    expect(fresh).toMatchObject({ allowed: true, remaining: 4 });
  });

  it("spends exactly the window's points when many requests of both come at once", async () => {
    const opts = { points: 25, durationSeconds: 60, name: 'burst' };
    const [one, two] = [createRateLimiter(a, opts), createRateLimiter(b, opts)];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? two : one).consume('org:burst')));
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(25);
    // each allowed request saw its own place in the window: 24 left, 23 left… 0 left, each once
    expect(allowed.map((r) => r.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0 && r.retryAfter > 0)).toBe(true);
    expect((await one.peek('org:burst')).allowed).toBe(false);
  });
});
