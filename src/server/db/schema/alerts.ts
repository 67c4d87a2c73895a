import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';
import { pipelines } from './pipelines';

/**
 * A pipeline's alerting (issue 30 §1): the error pipeline started when one of its production runs fails, and the
 * window within which one alert per error code is sent. No row: no error pipeline.
 */
export const pipelineAlerts = pgTable('pipeline_alerts', {
  pipelineId: uuid('pipeline_id')
    .primaryKey()
    .references(() => pipelines.id, { onDelete: 'cascade' }),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** The pipeline started with an `error-event`; deleting it turns alerting off. */
  errorPipelineId: uuid('error_pipeline_id').references(() => pipelines.id, { onDelete: 'set null' }),
  /** At most one alert per error code within this many seconds. */
  windowSeconds: integer('window_seconds').notNull().default(900),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The alert window of one pipeline and error code: when the last alert went out, and how many failures were held
 * back since (sent with the next alert). Updated by one atomic upsert per failure (services/alerts/throttle.ts).
 */
export const alertWindows = pgTable(
  'alert_windows',
  {
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    errorCode: text('error_code').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    /** Failures held back since `sent_at`. */
    heldBack: integer('held_back').notNull().default(0),
    /** The count the last alert sent carried (failures held back in the window before it). */
    released: integer('released').notNull().default(0),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.pipelineId, t.errorCode] }), index('alert_windows_org_idx').on(t.orgId, t.lastFailedAt)],
);
