import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Counters of rate-limiter-flexible's RateLimiterDrizzle, shared by every server process on Postgres. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});
