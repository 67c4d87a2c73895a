import { readProcedure } from '@/server/api/trpc';
import { getExecution } from '@/server/services/executions/get-execution';
import * as S from './execution.schema';

export const get = readProcedure
  .meta({ audit: { action: 'execution.read', detail: (_i, o) => ({ pipeline_id: String(o?.pipeline_id), status: String(o?.status) }) } })
  .meta({
    openapi: { method: 'GET', path: '/executions/{id}', tags: S.TAGS, summary: 'One execution with per-node inputs, outputs, timing and logs', protect: true },
    errors: ['EXECUTION_NOT_FOUND'],
  })
  .input(S.ExecutionDetail.pick({ id: true }))
  .output(S.ExecutionDetail)
  .query(({ ctx, input }) => getExecution(ctx, input.id));
