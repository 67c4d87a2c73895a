import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DataSettingsOverride } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import { organizations } from './orgs';

export const pipelines = pgTable(
  'pipelines',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    definition: jsonb('definition').$type<PipelineDefinition>().notNull(),
    status: text('status', { enum: ['active', 'deployed'] })
      .notNull()
      .default('active'),
    version: integer('version').notNull().default(1),
    /** The version production runs (API, webhooks, schedules, listeners) use; null while not deployed. */
    deployedVersion: integer('deployed_version'),
    deployedAt: timestamp('deployed_at', { withTimezone: true }),
    /** What its runs keep and for how long, over the organization's defaults (src/shared/data-settings.ts). */
    dataSettings: jsonb('data_settings').$type<DataSettingsOverride>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pipelines_org_created_idx').on(t.orgId, t.createdAt, t.id)],
);

/** Immutable snapshot of every version a pipeline has had; executions record which one they ran. */
export const pipelineVersions = pgTable(
  'pipeline_versions',
  {
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    definition: jsonb('definition').$type<PipelineDefinition>().notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.pipelineId, t.version] })],
);
