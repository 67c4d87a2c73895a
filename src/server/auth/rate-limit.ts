import { sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database, Db } from '@/server/db/client';
import { preparedPerDb } from '@/server/db/prepared';
import { rateLimits } from '@/server/db/schema';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time in seconds when the current window ends. */
  reset: number;
  /** Seconds to wait before retrying, when not allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitResult>;
  /** The key's budget without spending any: `allowed` is false once it is used up. */
  peek(key: string): Promise<RateLimitResult>;
}

export interface RateLimitOptions {
  points: number;
  durationSeconds: number;
  /** Prefix of the stored keys, one per limit (api, agent-chat, copilot…). */
  name: string;
}

/**
 * RateLimiterDrizzle's upsert (points spent: a new window, or more points in the current one) as a statement
 * prepared once: the library builds it with drizzle's query builder on every request, which was 8% of the CPU of
 * an authenticated GET. The same SQL and semantics as the library's `_upsert` (rate-limiter-flexible 11).
 */
const upsertPoint = preparedPerDb((db: Db) => {
  const expired = sql`${rateLimits.expire} <= ${sql.placeholder('now')}::timestamptz`;
  return db
    .insert(rateLimits)
    .values({ key: sql.placeholder('key'), points: sql`${sql.placeholder('points')}::int`, expire: sql`${sql.placeholder('expire')}::timestamptz` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        points: sql`CASE WHEN ${expired} THEN ${sql.placeholder('points')}::int ELSE ${rateLimits.points} + ${sql.placeholder('points')}::int END`,
        expire: sql`CASE WHEN ${expired} THEN ${sql.placeholder('expire')}::timestamptz ELSE ${rateLimits.expire} END`,
      },
    })
    .returning()
    .prepare('rate_limit_upsert');
});

/** What a request's point leaves: the points spent in the window counting it, and the time left in the window. */
interface Spent {
  consumed: number;
  msBeforeNext: number;
}

/**
 * One key's points spent in one upsert for all the requests that come while one is on its way (Postgres). Every
 * request of a process spends from the organization's one row, and each upsert holds that row's lock until it
 * commits: under load the requests of all processes queued on it (the main wait of Postgres under GET load,
 * `Lock:transactionid`). A batch of n takes n points at once, and the k-th of them counts as the window's total
 * after the upsert less n, plus k — what n upserts one after the other would have given, so the limit stays exact
 * across processes. The first request goes at once; only those arriving meanwhile wait, for one round trip.
 */
type Waiter = { resolve(s: Spent): void; reject(e: unknown): void };

class SpendInBatches {
  private readonly queued = new Map<string, Waiter[]>();

  constructor(private readonly spend: (key: string, points: number) => Promise<{ points: number; expire: Date | string | null }>) {}

  consume(key: string): Promise<Spent> {
    return new Promise((resolve, reject) => {
      const waiting = this.queued.get(key);
      if (waiting) return void waiting.push({ resolve, reject });
      this.queued.set(key, []);
      void this.send(key, [{ resolve, reject }]);
    });
  }

  /** Sends `batch`, then what queued meanwhile, until nothing has (a loop: under steady load it never ends). */
  private async send(key: string, batch: Waiter[]): Promise<void> {
    while (batch.length > 0) {
      try {
        const row = await this.spend(key, batch.length);
        const msBeforeNext = row.expire === null ? 0 : Math.max(new Date(row.expire).getTime() - Date.now(), 0);
        batch.forEach((w, k) => w.resolve({ consumed: row.points - batch.length + k + 1, msBeforeNext }));
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
      batch = this.queued.get(key)!;
      this.queued.set(key, []);
    }
    this.queued.delete(key);
  }
}

/**
 * Fixed-window counters by rate-limiter-flexible: in memory for the embedded single process, in the
 * shared Postgres table on Postgres so that every server process counts against the same budget (spent in
 * batches, see SpendInBatches; the library reads them back for `peek`).
 */
export function createRateLimiter(database: Database, opts: RateLimitOptions): RateLimiter {
  const memory = new RateLimiterMemory({ points: opts.points, duration: opts.durationSeconds, keyPrefix: opts.name });
  const shared =
    database.kind === 'postgres'
      ? new RateLimiterDrizzle({ storeClient: database.db, schema: rateLimits, points: opts.points, duration: opts.durationSeconds, keyPrefix: opts.name })
      : undefined;
  const batches =
    shared &&
    new SpendInBatches(async (key, points) => {
      const now = new Date();
      const [row] = await upsertPoint(database.db).execute({
        key: shared.getKey(key),
        points,
        now: now.toISOString(),
        expire: new Date(now.getTime() + opts.durationSeconds * 1000).toISOString(),
      });
      return row!;
    });

  /** A point spent is allowed while the window's count, with it, is within the limit (`peek`: while one more would be). */
  const result = (spent: Spent, allowed = spent.consumed <= opts.points): RateLimitResult => {
    const ms = Math.max(spent.msBeforeNext, 0);
    return {
      allowed,
      limit: opts.points,
      remaining: Math.max(opts.points - spent.consumed, 0),
      reset: Math.ceil((Date.now() + ms) / 1000),
      retryAfter: Math.max(Math.ceil(ms / 1000), 1),
    };
  };
  const fromLibrary = (res: RateLimiterRes): Spent => ({ consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext });
  const inMemory = (key: string) =>
    memory.consume(key).then(
      (res) => result(fromLibrary(res)),
      (e: unknown) => {
        if (e instanceof RateLimiterRes) return result(fromLibrary(e));
        throw e;
      },
    );

  return {
    async consume(key) {
      if (!batches) return inMemory(key);
      try {
        return result(await batches.consume(key));
      } catch {
        // if Postgres does not answer, keep limiting per process rather than failing every request
        return inMemory(key);
      }
    },
    async peek(key) {
      const res = await (shared ?? memory).get(key);
      if (!res) return { allowed: true, limit: opts.points, remaining: opts.points, reset: Math.ceil(Date.now() / 1000) + opts.durationSeconds, retryAfter: 0 };
      return result(fromLibrary(res), res.consumedPoints < opts.points);
    },
  };
}

export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  const h: Record<string, string> = {
    'X-RateLimit-Limit': String(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    'X-RateLimit-Reset': String(r.reset),
  };
  if (!r.allowed) h['Retry-After'] = String(r.retryAfter);
  return h;
}
