import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';
import { pipelines } from './pipelines';

/**
 * Improvements the copilot suggested for a version of a pipeline: each a concrete change (a modify request the
 * planner carries out), applied as a new version (POST /api/copilot/suggestions/{id}/apply).
 */
export const copilotSuggestions = pgTable(
  'copilot_suggestions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    /** The version it was made for: applying it to a later one is refused (409), as the graph may have moved on. */
    pipelineVersion: integer('pipeline_version').notNull(),
    /** The finding it answers (PHI_TO_EXTERNAL_LLM, FHIR_NOT_VALIDATED, WRITE_WITHOUT_RETRY…). */
    kind: text('kind').notNull(),
    nodeId: text('node_id'),
    title: text('title').notNull(),
    /** The change, as the planner's modify request ("add de-identification before ask"). */
    change: text('change').notNull(),
    status: text('status', { enum: ['open', 'applied'] })
      .notNull()
      .default('open'),
    appliedVersion: integer('applied_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('copilot_suggestions_pipeline_idx').on(t.pipelineId, t.createdAt)],
);
