import { sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
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
 * RateLimiterDrizzle's upsert (a point spent: a new window, or one more point in the current one) as a statement
 * prepared once: the library builds it with drizzle's query builder on every request, which was 8% of the CPU of
 * an authenticated GET. The same SQL and semantics as the library's `_upsert` (rate-limiter-flexible 11), which
 * still makes the rare forced expiry (`block`) itself.
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

/** The library's own `_upsert` (not in its type declarations). */
const libraryUpsert = (RateLimiterDrizzle.prototype as unknown as { _upsert(this: RateLimiterDrizzle, key: string, points: number, msDuration: number, forceExpire: boolean): Promise<unknown> })._upsert;

class PreparedRateLimiterDrizzle extends RateLimiterDrizzle {
  constructor(
    private readonly db: Db,
    opts: ConstructorParameters<typeof RateLimiterDrizzle>[0],
  ) {
    super(opts);
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<unknown> {
    if (forceExpire || msDuration <= 0) return libraryUpsert.call(this, key, points, msDuration, forceExpire);
    const now = new Date();
    const [row] = await upsertPoint(this.db).execute({ key, points, now: now.toISOString(), expire: new Date(now.getTime() + msDuration).toISOString() });
    return row;
  }
}

/**
 * Fixed-window counters by rate-limiter-flexible: in memory for the embedded single process, in the
 * shared Postgres table on Postgres so that every server process counts against the same budget.
 */
export function createRateLimiter(database: Database, opts: RateLimitOptions): RateLimiter {
  const memory = new RateLimiterMemory({ points: opts.points, duration: opts.durationSeconds, keyPrefix: opts.name });
  const limiter: RateLimiterAbstract =
    database.kind === 'postgres'
      ? new PreparedRateLimiterDrizzle(database.db, {
          storeClient: database.db,
          schema: rateLimits,
          points: opts.points,
          duration: opts.durationSeconds,
          keyPrefix: opts.name,
          // if Postgres does not answer, keep limiting per process rather than failing every request
          insuranceLimiter: memory,
        })
      : memory;

  const toResult = (res: RateLimiterRes, allowed: boolean): RateLimitResult => {
    const ms = Math.max(res.msBeforeNext, 0);
    return {
      allowed,
      limit: opts.points,
      remaining: Math.max(res.remainingPoints, 0),
      reset: Math.ceil((Date.now() + ms) / 1000),
      retryAfter: Math.max(Math.ceil(ms / 1000), 1),
    };
  };

  return {
    async consume(key) {
      try {
        return toResult(await limiter.consume(key), true);
      } catch (e) {
        if (e instanceof RateLimiterRes) return toResult(e, false);
        throw e;
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      if (!res) return { allowed: true, limit: opts.points, remaining: opts.points, reset: Math.ceil(Date.now() / 1000) + opts.durationSeconds, retryAfter: 0 };
      return toResult(res, res.consumedPoints < opts.points);
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
