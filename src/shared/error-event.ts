import { z } from 'zod';

/**
 * What an error pipeline is started with when a production run of a pipeline that names it fails (issue 30 §1):
 * the `error-event` port type's shape, as the error trigger emits it. Built by services/alerts/on-run-failed.ts.
 */
export const ErrorEvent = z.object({
  pipeline: z.object({ id: z.string(), name: z.string() }).describe('The pipeline whose run failed'),
  version: z.number().int().describe('The pipeline version the failed run ran'),
  execution: z.object({ id: z.string(), url: z.string().describe('The run in the web app') }),
  node: z
    .object({ id: z.string(), type: z.string() })
    .nullable()
    .describe('The node that failed; null when the run failed outside any node (it could not be stored)'),
  error: z.object({ code: z.string(), message: z.string() }),
  attempt: z.number().int().describe('Which attempt of the failed node this was (1 = no retry)'),
  trigger: z.string().describe('How the failed run was started: api, async, webhook, schedule, mllp…'),
  failed_at: z.string().describe('When the run ended failed (ISO time)'),
  held_back: z.number().int().describe('Failures of the same pipeline and error code held back since the previous alert (its window)'),
});

export type ErrorEvent = z.infer<typeof ErrorEvent>;

/** An error event to try an error pipeline with (the editor's run dialog, the docs). */
export const SAMPLE_ERROR_EVENT: ErrorEvent = {
  pipeline: { id: '00000000-0000-4000-8000-000000000001', name: 'ADT feed' },
  version: 3,
  execution: { id: '00000000-0000-4000-8000-000000000002', url: '/executions/00000000-0000-4000-8000-000000000002' },
  node: { id: 'fhir_write', type: 'fhir-write' },
  error: { code: 'FHIR_WRITE_FAILED', message: 'The FHIR server answered 503 Service Unavailable' },
  attempt: 3,
  trigger: 'mllp',
  failed_at: '2026-01-05T02:00:00.000Z',
  held_back: 0,
};
