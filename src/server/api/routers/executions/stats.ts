import { readProcedure } from '@/server/api/trpc';
import { executionStats } from '@/server/services/executions/stats';
import * as S from './execution.schema';

export const stats = readProcedure
  .meta({ openapi: { method: 'GET', path: '/stats', tags: S.TAGS, summary: 'Success rate, average duration, error distribution by node type', protect: true } })
  .input(S.StatsInput)
  .output(S.Stats)
  .query(({ ctx, input }) => executionStats(ctx, input));
