import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail (issue 30 §3): who did what, when, from where, to which object. Append-only — a trigger of the
 * migration refuses UPDATE and DELETE except inside the audit pruner's own transaction (services/audit/prune.ts).
 * No foreign keys: an entry outlives the user, key, pipeline or organization it names. Holds no secret and no
 * payload: names and ids only.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** null: a failed sign-in with an address that names no user (no organization to show it to). */
    orgId: text('org_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** user (a browser session or a sign-in), api-key, or system */
    actorType: text('actor_type').$type<'user' | 'api-key' | 'system'>().notNull(),
    /** The user's or key's id (null for a failed sign-in of an unknown address) */
    actorId: text('actor_id'),
    /** The user's email or the key's name, as it was then */
    actorName: text('actor_name'),
    /** e.g. execution.read, pipeline.deploy, key.revoke, session.sign-in */
    action: text('action').notNull(),
    outcome: text('outcome').$type<'success' | 'failure'>().notNull().default('success'),
    objectType: text('object_type'),
    objectId: text('object_id'),
    objectName: text('object_name'),
    /** The client address the server worked out (X-Forwarded-For only from TRUSTED_PROXIES) */
    address: text('address'),
    /** app (the web app) or api (REST) */
    channel: text('channel'),
    /** Small, secret-free facts: the role set, the pipeline of an execution, the reason of a failure */
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [
    index('audit_events_org_at_idx').on(t.orgId, t.at),
    index('audit_events_org_object_idx').on(t.orgId, t.objectId),
    index('audit_events_at_idx').on(t.at),
  ],
);
