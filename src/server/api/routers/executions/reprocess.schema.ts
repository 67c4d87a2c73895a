import { z } from 'zod';
import { Instant } from './execution.schema';
import { REPROCESS_DOCS as D } from './reprocess.docs';

export const ReprocessInput = z.object({
  pipeline_id: z.string().optional().describe('UUID of a pipeline of yours: only its runs'),
  since: Instant.optional().describe('ISO 8601: only runs created at or after this time'),
  until: Instant.optional().describe('ISO 8601: only runs created before this time'),
  status: z.enum(['failed', 'cancelled']).default('failed').describe(D.fields.status),
  error_code: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Z][A-Z0-9_]{0,59}$/, 'an error code, e.g. CONNECTOR_UNAVAILABLE'),
    )
    .max(50)
    .optional()
    .describe(D.fields.error_code),
  dry_run: z.boolean().default(false).describe(D.fields.dry_run),
});

export const ReprocessStarted = z.object({
  job_id: z.string().nullable().describe('The bulk reprocess (null for a dry run)'),
  matched: z.number().int().describe('Runs selected (and, unless a dry run, taken by this job)'),
  not_kept: z.number().int().describe(D.fields.not_kept),
  dry_run: z.boolean(),
  batches: z.number().int().optional().describe('Queue jobs the runs were split into'),
});

export const ReprocessGetInput = z.object({
  id: z.string(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ReprocessJob = z.object({
  id: z.string(),
  created_at: z.string(),
  filter: z.object({
    status: z.enum(['failed', 'cancelled']),
    pipeline_id: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    error_code: z.array(z.string()).optional(),
  }),
  status: z.enum(['running', 'completed']),
  total: z.number().int(),
  queued: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  runs: z.array(
    z.object({
      execution_id: z.string().describe('The run retried'),
      retry_id: z.string().nullable().describe('The execution that retried it (its retry_of is execution_id)'),
      state: z.enum(['queued', 'done', 'failed', 'skipped']).describe(D.fields.state),
      error_code: z.string().nullable(),
      error_message: z.string().nullable(),
    }),
  ),
});
