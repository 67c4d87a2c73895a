import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

/**
 * Limited slots of an organization shared by every process (the 5 running bulk exports of the Bulk Data limit):
 * a row is a slot held by `holder` until `expires_at`, a lease its holder renews while it works, so a slot of a
 * process that died frees itself.
 */
export const orgSlots = pgTable(
  'org_slots',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slot: integer('slot').notNull(),
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.name, t.slot] })],
);

/**
 * Processes that work the execution queue, each instance (a process start) with its heartbeat: runs a process
 * claimed (executions.claimed_by) are handed to the queue once its heartbeat is stale (queue/claims.ts).
 */
export const queueProcesses = pgTable('queue_processes', {
  id: uuid('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});
