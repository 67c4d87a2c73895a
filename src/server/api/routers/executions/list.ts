import { readProcedure } from '@/server/api/trpc';
import { listExecutions } from '@/server/services/executions/list-executions';
import * as S from './execution.schema';

export const list = readProcedure
  .meta({ openapi: { method: 'GET', path: '/executions', tags: S.TAGS, summary: 'Execution history with status, timing and errors', protect: true } })
  .input(S.ListInput)
  .output(S.ExecutionList)
  .query(({ ctx, input }) => listExecutions(ctx, input));
