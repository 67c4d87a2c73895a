import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

/**
 * One run of the pruner (src/server/services/retention): which job of the pruner queue ran it, where, when, and what it
 * removed in all. One runs at a time across every process (the queue's policy); the dashboard shows the last one.
 */
export const pruneRuns = pgTable(
  'prune_runs',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** The pg-boss job it ran as (null when run outside the queue: tests, the bench). */
    jobId: text('job_id'),
    /** Host name and process id of the process that ran it. */
    runner: text('runner').notNull(),
    /** The clock the run judged ages by (the time it started, unless a caller gave another: the bench's simulated clock). */
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** running, completed (nothing left to do), partial (stopped at its time budget; the next run goes on), failed */
    status: text('status').$type<'running' | 'completed' | 'partial' | 'failed'>().notNull(),
    executionsDeleted: integer('executions_deleted').notNull().default(0),
    payloadsPruned: integer('payloads_pruned').notNull().default(0),
    /** Bytes of the rows and values it removed, as Postgres stored them (compressed, TOAST included). */
    bytesFreed: bigint('bytes_freed', { mode: 'number' }).notNull().default(0),
    error: text('error'),
  },
  (t) => [index('prune_runs_started_idx').on(t.startedAt)],
);

/** What one run removed of one pipeline's runs (only pipelines it removed something of). */
export const pruneCounts = pgTable(
  'prune_counts',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => pruneRuns.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** No foreign key: runs of a deleted pipeline are pruned too. */
    pipelineId: uuid('pipeline_id').notNull(),
    executionsDeleted: integer('executions_deleted').notNull().default(0),
    payloadsPruned: integer('payloads_pruned').notNull().default(0),
    bytesFreed: bigint('bytes_freed', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.runId, t.orgId, t.pipelineId] }), index('prune_counts_org_idx').on(t.orgId, t.runId)],
);
