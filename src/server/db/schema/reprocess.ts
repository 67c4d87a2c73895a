import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

/** The filter a bulk reprocess was asked with (services/executions/reprocess-filter.ts), kept as given. */
export interface ReprocessFilter {
  pipeline_id?: string;
  from?: string;
  to?: string;
  status: 'failed' | 'cancelled';
  error_code?: string[];
}

/**
 * A bulk reprocess (issue 30 §2): failed production runs retried from their failed node, in batches through the
 * queue. Its progress is counted from its items; who asked for it is kept so each retry runs as them.
 */
export const reprocessJobs = pgTable(
  'reprocess_jobs',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    filter: jsonb('filter').$type<ReprocessFilter>().notNull(),
    /** The caller: api-key or session, and the key's or user's id. */
    actorKind: text('actor_kind').$type<'api-key' | 'session'>().notNull(),
    actorId: text('actor_id'),
    total: integer('total').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reprocess_jobs_org_idx').on(t.orgId, t.createdAt)],
);

/** pending (not retried yet), started (its retry is `retry_id`: done or failed is that run's status), skipped, failed (no retry could start). */
export type ReprocessItemState = 'pending' | 'started' | 'skipped' | 'failed';

/**
 * One run of a bulk reprocess. A run is reprocessed by one job only: the unique index over the runs pending or started
 * makes a second request (or two at once) leave out what another already took.
 */
export const reprocessItems = pgTable(
  'reprocess_items',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => reprocessJobs.id, { onDelete: 'cascade' }),
    /** The run retried (no foreign key: executions are pruned by their own retention). */
    executionId: uuid('execution_id').notNull(),
    batch: integer('batch').notNull(),
    state: text('state').$type<ReprocessItemState>().notNull().default('pending'),
    /** The execution the retry started (its retry_of is `execution_id`). */
    retryId: uuid('retry_id'),
    /** Why it was skipped or failed: a code of the error table, and words. */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.executionId] }),
    index('reprocess_items_batch_idx').on(t.jobId, t.batch),
    uniqueIndex('reprocess_items_once_idx')
      .on(t.executionId)
      .where(sql`state in ('pending', 'started')`),
  ],
);
