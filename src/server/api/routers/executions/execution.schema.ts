import { z } from 'zod';
import { DATA_POLICIES, PAYLOAD_STATES } from '@/shared/data-settings';
import { EXECUTION_STATUSES, SKIP_REASONS } from '@/shared/statuses';

export const TAGS = ['Executions'];

const Json = z.record(z.string(), z.unknown());
const ErrorInfo = z.object({ node_id: z.string().nullable(), code: z.string(), message: z.string() });
export const NodeResults = z
  .record(z.string(), z.object({ status: z.string(), duration_ms: z.number().int(), reason: z.enum(SKIP_REASONS).optional() }))
  .describe('Per node: status and duration; a skipped node says why (branch_not_taken, upstream_failed, execution_stopped, disabled, not_requested)');

export const ExecuteInput = z.object({
  pipeline_id: z.string().describe('UUID of the pipeline'),
  inputs: Json.default({}).describe('Data passed to the pipeline trigger'),
  async: z.boolean().default(false),
  test_mode: z.boolean().default(false).describe('When true nothing is written to external systems'),
  run_to_node: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      [
        'Test runs only (test_mode: true, async: false): run this node and the nodes upstream',
        'of it, nothing downstream; the others are skipped with reason not_requested',
      ].join(' '),
    ),
});

export const ExecuteResult = z.object({
  execution_id: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  outputs: Json.optional(),
  node_results: NodeResults.optional(),
  error: ErrorInfo.optional(),
  retry_of: z.string().optional(),
});

export const RetryInput = z.object({
  execution_id: z.string(),
  node_id: z.string().min(1),
  inputs: Json.optional().describe(
    [
      'Inputs of node_id to replace, by port name; the other ports keep what the stored upstream runs give. Absent or',
      '{}: run node_id on its recorded inputs. When node_id is the trigger: keys of the execution inputs to replace',
    ].join(' '),
  ),
});

export const StepStartInput = z.object({
  pipeline_id: z.string(),
  inputs: Json.default({}),
  test_mode: z.boolean().default(true).describe('Step runs are test runs unless you say otherwise'),
});

export const StepAdvanceInput = z.object({
  sessionId: z.string(),
  node_outputs: Json.optional().describe('Use these as the current node outputs instead of running it'),
});

export const StepState = z.object({
  session_id: z.string(),
  execution_id: z.string(),
  current_node: z.string().nullable(),
  status: z.enum(['waiting', 'completed', 'failed']),
  node_results: NodeResults,
  finished_node: z
    .object({
      node_id: z.string(),
      status: z.string(),
      outputs: Json,
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
      duration_ms: z.number().int().nullable(),
    })
    .optional(),
  error: ErrorInfo.optional(),
});

export const ExecutionSummary = z.object({
  id: z.string(),
  pipeline_id: z.string(),
  pipeline_version: z.number().int(),
  status: z.string(),
  trigger: z.string(),
  test_mode: z.boolean(),
  retry_of: z.string().nullable(),
  starts_after: z
    .string()
    .nullable()
    .describe(
      'The execution of the message before this one from the same MLLP sender: this run started once that one ended (a sender’s ' +
        'messages run in the order received); null for every other run',
    ),
  error: ErrorInfo.nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  data_policy: z
    .enum(DATA_POLICIES)
    .nullable()
    .describe("The data policy the run applied (the pipeline's when it ended; full for test runs and step sessions); null while it runs"),
  payloads: z
    .enum(PAYLOAD_STATES)
    .describe(
      'What of its inputs and outputs is stored: kept; input (only the trigger input: a run under `errors` that failed outside the engine); ' +
        'not_kept (the policy kept none: inputs, outputs and node payloads are null); pruned (retention removed them)',
    ),
  input_bytes: z.number().int().nullable().describe("Size of the trigger's input as JSON, kept or not; null while it runs"),
  output_bytes: z.number().int().nullable().describe("Size of the execution's outputs as JSON, kept or not; null while it runs"),
  stored_bytes: z
    .number()
    .int()
    .nullable()
    .describe('JSON bytes its records hold in the database (node records with the payloads kept, input and outputs kept)'),
});

export const ExecutionList = z.object({ executions: z.array(ExecutionSummary), total_count: z.number().int() });

export const ExecutionDetail = ExecutionSummary.extend({
  inputs: Json.nullable().describe('The trigger input; null when its payloads were not kept (see payloads)'),
  outputs: Json.nullable().describe('Values that reached pipeline-output nodes; null while running, or when its payloads were not kept'),
  nodes: z.array(
    z.object({
      node_id: z.string(),
      node_type: z.string(),
      status: z.string(),
      inputs: Json.nullable().describe('null when the payloads were not kept (see payloads)'),
      outputs: Json.nullable().describe('null when the payloads were not kept (see payloads)'),
      payloads: z.enum(PAYLOAD_STATES).describe("Whether this node's inputs and outputs are stored (as the execution's)"),
      logs: z.array(z.object({ level: z.string(), message: z.string(), time: z.string() })),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
      reason: z.enum(SKIP_REASONS).nullable().describe('Why a skipped node did not run'),
      attempts: z.number().int(),
      started_at: z.string().nullable(),
      finished_at: z.string().nullable(),
      duration_ms: z.number().int().nullable(),
    }),
  ),
});

/** An ISO 8601 time with an offset, in the years the database can store (year 0 and beyond 9999 are refused). */
export const Instant = z.iso.datetime({ offset: true }).refine((v) => {
  const year = new Date(v).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, 'Use a time between the years 1 and 9999, e.g. 2026-01-31T00:00:00Z.');

export const ListInput = z.object({
  pipeline_id: z.string().optional(),
  status: z.enum(EXECUTION_STATUSES).optional(),
  since: Instant.optional().describe('ISO 8601: only executions created at or after this time'),
  until: Instant.optional().describe('ISO 8601: only executions created before this time'),
  q: z.string().trim().min(1).max(200).optional().describe("Text to find in the execution's inputs, outputs or error (case-insensitive), e.g. an MRN"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

export const StatsInput = z.object({
  pipeline_id: z.string().optional(),
  since: Instant.optional().describe('ISO 8601 start of the window'),
  until: Instant.optional().describe('ISO 8601 end of the window'),
});

export const Stats = z.object({
  total_executions: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
  success_rate: z.number().nullable(),
  average_duration_ms: z.number().int().nullable(),
  error_distribution: z.array(z.object({ node_type: z.string(), count: z.number().int(), codes: z.record(z.string(), z.number().int()) })),
  window: z.object({ pipeline_id: z.string().nullable(), since: z.string().nullable(), until: z.string().nullable() }),
});
