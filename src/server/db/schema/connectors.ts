import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

/**
 * Connections to outside systems. `config` holds the type's settings (no secrets); `secrets` the credentials,
 * encrypted with AES-256-GCM (see services/connectors/secrets.ts): a JSON envelope of key id, IV, tag and
 * ciphertext — never plaintext.
 */
export const connectors = pgTable(
  'connectors',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: ['fhir', 'hl7-mllp', 'http', 'postgres', 'smtp'] }).notNull(),
    endpoint: text('endpoint').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    secrets: text('secrets'),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('connectors_org_name_idx').on(t.orgId, t.name), index('connectors_org_created_idx').on(t.orgId, t.createdAt)],
);
