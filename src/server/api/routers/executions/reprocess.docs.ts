/** What the OpenAPI document says about bulk reprocessing (issue 30 §2); the guide is docs/reprocess.md. */
export const REPROCESS_DOCS = {
  start: {
    summary: 'Retry failed production runs in bulk, each from its failed node',
    description: [
      'Selects the production runs (never test runs) of your organization with `status` (failed by default), optionally of one',
      'pipeline, created in [since, until), failed with one of `error_code`; leaves out runs already retried (a retry finished',
      'or in flight, by hand or by another bulk reprocess). Each is retried from its failed node on its recorded inputs, like',
      'POST /execute/retry, in batches through the queue, at most 20 at once per organization (within its 100 running',
      'executions). Each new execution names the run it retried (`retry_of`) and sends that run’s idempotency keys, so a write',
      'that reached the FHIR server before the failure is not written again. Answers 202 with the job id and how many runs it',
      'took; follow it with GET /executions/reprocess/{id}. `dry_run: true` only counts. Needs the execute scope.',
    ].join(' '),
  },
  get: {
    summary: 'Progress of a bulk reprocess',
    description: [
      'total, queued (not retried yet, or its retry still running), done (the retry completed), failed (the retry failed,',
      'or none could start), skipped (the run cannot be retried: its payloads were not kept under the data policy',
      '(PAYLOADS_NOT_KEPT), its pipeline is no longer deployed (PIPELINE_NOT_DEPLOYED) …); status is completed when',
      'nothing is queued. `runs` lists the runs (limit/offset), each with its retry and, when failed or skipped, the code.',
    ].join(' '),
  },
  fields: {
    status: 'Which runs: failed (default) or cancelled',
    error_code: 'Only runs that failed with one of these codes (the error table’s, e.g. CONNECTOR_UNAVAILABLE, or a node’s)',
    dry_run: 'Only count the runs the filter selects; start nothing',
    not_kept: 'Of those, runs whose payloads were not kept: they will be reported skipped (PAYLOADS_NOT_KEPT)',
    state: 'queued, done, failed or skipped',
  },
} as const;
