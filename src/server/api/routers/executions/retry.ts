import { executeProcedure } from '@/server/api/trpc';
import { retryExecution } from '@/server/services/executions/retry';
import * as S from './execution.schema';

export const retry = executeProcedure
  .meta({
    audit: {
      action: 'execution.retry',
      id: (i) => i?.execution_id,
      detail: (i, o) => ({ node_id: String(i?.node_id), new_execution_id: String(o?.execution_id) }),
    },
  })
  .meta({
    openapi: { method: 'POST', path: '/execute/retry', tags: S.TAGS, summary: 'Re-run a past execution from a node, keeping upstream outputs', protect: true },
    errors: ['EXECUTION_NOT_FOUND', 'PIPELINE_NOT_FOUND', 'NODE_NOT_FOUND', 'PIPELINE_NOT_DEPLOYED', 'PAYLOADS_NOT_KEPT', 'CONCURRENCY_LIMIT'],
  })
  .input(S.RetryInput)
  .output(S.ExecuteResult)
  .mutation(({ ctx, input }) => retryExecution(ctx, input));
