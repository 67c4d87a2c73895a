import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

import type { DataPolicy, PayloadState } from '@/shared/data-settings';
import type { ExecutionStatus, SkipReason } from '@/shared/statuses';

export type { ExecutionStatus };

/** Where a slot's value is stored instead: `[node id, 'inputs' | 'outputs', port]` of the same execution. */
export type SlotRef = [string, 'inputs' | 'outputs', string];
/** A node record's values stored elsewhere, by side and port. */
export interface RecordRefs {
  inputs?: Record<string, SlotRef>;
  outputs?: Record<string, SlotRef>;
}

/**
 * A run's node records in one value: `t0`, epoch milliseconds the nodes' times count from, and per node
 * `[node_id, node_type, status, attempts, started, finished, duration_ms, error, reason, logs]` (times in ms after
 * `t0`, logs as `[time, message, level?]`; trailing nulls and an empty log left out). See services/executions/node-runs.ts.
 */
/** Bytes as Postgres's bytea: a Buffer from postgres.js, a Uint8Array from PGlite. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export interface CompactNodeRuns {
  t0: number;
  nodes: unknown[][];
}

/**
 * One run of a pipeline version. Pipelines may be deleted later; their executions stay as history, so
 * pipeline_id carries no foreign key.
 */
export const executions = pgTable(
  'executions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    pipelineId: uuid('pipeline_id').notNull(),
    pipelineVersion: integer('pipeline_version').notNull(),
    status: text('status').$type<ExecutionStatus>().notNull(),
    /** api, async, schedule, webhook, retry, step */
    trigger: text('trigger').notNull(),
    testMode: boolean('test_mode').notNull().default(false),
    retryOf: uuid('retry_of'),
    /** The trigger's input; '{}' when it is stored deflated in inputs_z. Read and written through stored-inputs.ts only. */
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull(),
    /** The trigger's input when large: raw deflate of its JSON text (services/executions/stored-inputs.ts), else null. */
    inputsZ: bytea('inputs_z'),
    /** The outputs deflated when large (`outputs` is then null). Read and written through stored-payloads.ts only. */
    outputsZ: bytea('outputs_z'),
    outputs: jsonb('outputs').$type<Record<string, unknown>>(),
    error: jsonb('error').$type<{ node_id: string | null; code: string; message: string }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    /** The data policy the run applied once it ended (`full` for test and step runs); null while open. See data-policy.ts. */
    dataPolicy: text('data_policy').$type<DataPolicy>(),
    /** What of its payloads is stored now: kept, input (only the trigger's), not_kept, pruned. */
    payloads: text('payloads').$type<PayloadState>().notNull().default('kept'),
    /** Bytes of the trigger's input and of the execution's outputs as JSON, kept or not (null while open). */
    inputBytes: integer('input_bytes'),
    outputBytes: integer('output_bytes'),
    /** Bytes of JSON the run's records hold (node records with the payloads kept, the input and outputs kept). */
    storedBytes: integer('stored_bytes'),
    /**
     * The node records of a run that kept no payload and did not fail, in one value instead of execution_nodes rows
     * (node-runs.ts): what an `errors` or `metadata` run's detail, stats and dashboard read of its nodes. Null otherwise.
     */
    nodeRuns: json('node_runs').$type<CompactNodeRuns>(),
    /**
     * The process instance (queue_processes.id) that admitted this run to run it itself, with no queue job (the MLLP
     * feed: MessageStore); null otherwise, and once the run ended or was handed to the queue (queue/claims.ts).
     */
    claimedBy: uuid('claimed_by'),
    /**
     * The run of the message before this one on its MLLP connection (ack_mode stored: MessageStore), which this run
     * starts after: held by its process until that one ended (queue/held-runs.ts). Null for every other run. No
     * foreign key: the run before may be pruned first, and a run whose predecessor is gone is not held.
     */
    afterId: uuid('after_id'),
  },
  (t) => [
    index('executions_org_created_idx').on(t.orgId, t.createdAt),
    index('executions_pipeline_idx').on(t.pipelineId, t.createdAt),
    /** A run's retries: what a bulk reprocess looks up to leave out (or adopt) a run retried already. */
    index('executions_retry_of_idx')
      .on(t.retryOf)
      .where(sql`retry_of is not null`),
    index('executions_active_idx')
      .on(t.orgId)
      .where(sql`status in ('queued', 'running')`),
    /** Runs held by a process: what the recovery of a dead process's runs looks up (queue/claims.ts). */
    index('executions_claimed_idx')
      .on(t.claimedBy)
      .where(sql`claimed_by is not null`),
    /** The queued run that starts after a run: what the end of that run takes to run next (queue/held-runs.ts). */
    index('executions_after_idx')
      .on(t.afterId)
      .where(sql`after_id is not null and status = 'queued'`),
    /** The runs whose payloads are still there, oldest first per pipeline: what the pruner's payload expiry walks (retention/prune.ts). */
    index('executions_payloads_held_idx')
      .on(t.pipelineId, t.createdAt)
      .where(sql`payloads in ('kept', 'input')`),
  ],
);

/** Per-node record of an execution; (execution, node) is unique, which also makes writes idempotent. */
export const executionNodes = pgTable(
  'execution_nodes',
  {
    executionId: uuid('execution_id')
      .notNull()
      .references(() => executions.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    nodeType: text('node_type').notNull(),
    status: text('status').notNull(),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull(),
    outputs: jsonb('outputs').$type<Record<string, unknown>>().notNull(),
    logs: jsonb('logs').$type<{ level: string; message: string; time: string }[]>().notNull(),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    attempts: integer('attempts').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    /** The value a node gave the execution's outputs (pipeline-output), kept so a retry or a resumed run still has it. */
    emit: jsonb('emit').$type<{ key: string; value: unknown }>(),
    /** A skipped node: why it did not run (branch_not_taken, upstream_failed, execution_stopped). */
    reason: text('reason').$type<SkipReason>(),
    /**
     * Inputs and outputs stored once: a value that is another slot's (a node's input is its upstream's output,
     * a pass-through output is the node's own input) is left out here and named instead — see record-refs.ts.
     */
    refs: jsonb('refs').$type<RecordRefs>(),
    /**
     * Inputs and outputs deflated, when large: `inputs` and `outputs` are then '{}'. Read and written through
     * stored-payloads.ts only.
     */
    payloadsZ: bytea('payloads_z'),
  },
  (t) => [primaryKey({ columns: [t.executionId, t.nodeId] })],
);

/**
 * An organization's execution slots (as many as it may run at once). An execution takes a free slot when
 * it is admitted; a slot is free when its execution is no longer queued or running (or never was), so
 * finishing frees it without another write. Admissions lock different slots (SKIP LOCKED): they never
 * wait for each other. See the start_execution SQL function.
 */
export const executionSlots = pgTable(
  'execution_slots',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    executionId: uuid('execution_id'),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.slot] })],
);

/** A step-debugging session over one execution; it waits at `current_node`. */
export const stepSessions = pgTable('step_sessions', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  executionId: uuid('execution_id')
    .notNull()
    .references(() => executions.id, { onDelete: 'cascade' }),
  currentNode: text('current_node'),
  status: text('status').$type<'waiting' | 'completed' | 'failed' | 'expired'>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
