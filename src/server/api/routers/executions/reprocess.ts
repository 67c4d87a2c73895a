import { executeProcedure, readProcedure } from '@/server/api/trpc';
import { getReprocess } from '@/server/services/executions/reprocess-get';
import { startReprocess } from '@/server/services/executions/reprocess-start';
import { TAGS } from './execution.schema';
import { REPROCESS_DOCS as D } from './reprocess.docs';
import * as S from './reprocess.schema';

export const reprocess = executeProcedure
  .meta({
    audit: {
      action: 'execution.reprocess',
      objectType: 'reprocess',
      id: (_i, o) => o?.job_id,
      skip: (_i, o) => o?.dry_run === true,
      detail: (i, o) => ({
        matched: Number(o?.matched ?? 0),
        pipeline_id: typeof i?.pipeline_id === 'string' ? i.pipeline_id : null,
        status: String(i?.status ?? 'failed'),
        error_code: Array.isArray(i?.error_code) ? i.error_code.join(',') : null,
        since: typeof i?.since === 'string' ? i.since : null,
        until: typeof i?.until === 'string' ? i.until : null,
      }),
    },
  })
  .meta({
    openapi: { method: 'POST', path: '/executions/reprocess', tags: TAGS, summary: D.start.summary, description: D.start.description, protect: true },
    successStatus: 202,
    errors: ['PIPELINE_NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  .input(S.ReprocessInput)
  .output(S.ReprocessStarted)
  .mutation(({ ctx, input }) => startReprocess(ctx, input));

export const reprocessGet = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/executions/reprocess/{id}', tags: TAGS, summary: D.get.summary, description: D.get.description, protect: true },
    errors: ['NOT_FOUND'],
  })
  .input(S.ReprocessGetInput)
  .output(S.ReprocessJob)
  .query(({ ctx, input }) => getReprocess(ctx, input));
