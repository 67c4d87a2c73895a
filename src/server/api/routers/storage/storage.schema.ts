import { z } from 'zod';

export const TAGS = ['Storage'];

const Removed = z.object({
  executions_deleted: z.number().int().meta({ description: 'Runs deleted with their node records (past execution_days, or beyond max_executions)' }),
  payloads_pruned: z.number().int().meta({ description: 'Runs whose payloads were removed (past payload_days); the runs stay listed' }),
  bytes_freed: z.number().int().meta({ description: 'Bytes of the removed rows and values as Postgres stored them (compressed, TOAST included)' }),
});

const Retention = z.object({
  payload_days: z.number().int().nullable(),
  execution_days: z.number().int().nullable(),
  max_executions: z.number().int().nullable(),
});

const PipelineStorage = z.object({
  pipeline_id: z.string(),
  name: z.string().nullable().meta({ description: 'null: the pipeline was deleted; its runs stay, under the organization’s retention' }),
  executions: z.number().int().meta({ description: 'Runs stored (exact)' }),
  with_payloads: z.number().int().meta({ description: 'Runs whose payloads are stored (payloads kept, or only the trigger’s input)' }),
  payloads_pruned: z.number().int().meta({ description: 'Runs whose payloads the pruner removed (payloads: pruned)' }),
  payloads_not_kept: z.number().int().meta({ description: 'Runs whose data policy kept no payload (payloads: not_kept)' }),
  estimated_bytes: z.number().int().meta({ description: 'Estimate: each payload state’s run count times the stored size of up to 50 of its runs' }),
  retention: Retention.nullable().meta({ description: 'The retention its runs get (pipeline over organization over defaults)' }),
  removed_last_7_days: Removed,
});

export const StorageReport = z.object({
  pipelines: z.array(PipelineStorage),
  total: z.object({ executions: z.number().int(), estimated_bytes: z.number().int() }),
  pruner: z.object({
    last_run: Removed.extend({
      id: z.string(),
      status: z.string().meta({ description: 'running, completed, partial (stopped at its time budget; the next pass goes on) or failed' }),
      started_at: z.string(),
      finished_at: z.string().nullable(),
      as_of: z.string().meta({ description: 'The time ages were judged by' }),
    })
      .nullable()
      .meta({ description: 'The latest pass (of any organization’s runs); the counts are this organization’s' }),
    last_7_days: Removed,
  }),
});

export const PruneRun = Removed.extend({
  job_id: z.string(),
  id: z.string().nullable(),
  status: z.enum(['queued', 'running', 'completed', 'partial', 'failed']),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
