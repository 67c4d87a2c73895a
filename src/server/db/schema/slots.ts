import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
