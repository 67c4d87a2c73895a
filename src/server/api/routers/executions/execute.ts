import { executeProcedure } from '@/server/api/trpc';
import { execute as runExecute } from '@/server/services/executions/execute';
import * as S from './execution.schema';

export const execute = executeProcedure
  .meta({ openapi: { method: 'POST', path: '/execute', tags: S.TAGS, summary: 'Run a pipeline: sync (waits) or async (poll the execution)', protect: true }, errors: ['PIPELINE_NOT_FOUND', 'PIPELINE_NOT_DEPLOYED', 'PIPELINE_INVALID', 'CONCURRENCY_LIMIT'] })
  .input(S.ExecuteInput)
  .output(S.ExecuteResult)
  .mutation(async ({ ctx, input }) => {
    const result = await runExecute(ctx, input, { enqueue: ctx.rt.queue?.enqueue });
    if (input.async) ctx.rt.queue?.wake();
    return result;
  });
