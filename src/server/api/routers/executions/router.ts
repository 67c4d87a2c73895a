import { executeProcedure, readProcedure, router } from '@/server/api/trpc';
import { execute } from '@/server/services/executions/execute';
import { getExecution } from '@/server/services/executions/get-execution';
import { listExecutions } from '@/server/services/executions/list-executions';
import { retryExecution } from '@/server/services/executions/retry';
import { executionStats } from '@/server/services/executions/stats';
import { advanceStep, startStep } from '@/server/services/executions/step';
import * as S from './execution.schema';

const tags = ['Executions'];

export const executionsRouter = router({
  execute: executeProcedure
    .meta({ openapi: { method: 'POST', path: '/execute', tags, summary: 'Run a pipeline: sync (waits) or async (poll the execution)', protect: true } })
    .input(S.ExecuteInput)
    .output(S.ExecuteResult)
    .mutation(async ({ ctx, input }) => {
      const result = await execute(ctx, input, { enqueue: ctx.rt.queue?.enqueue });
      if (input.async) ctx.rt.queue?.wake();
      return result;
    }),
  retry: executeProcedure
    .meta({ openapi: { method: 'POST', path: '/execute/retry', tags, summary: 'Re-run a past execution from a node, keeping upstream outputs', protect: true } })
    .input(S.RetryInput)
    .output(S.ExecuteResult)
    .mutation(({ ctx, input }) => retryExecution(ctx, input)),
  stepStart: executeProcedure
    .meta({ openapi: { method: 'POST', path: '/execute/step', tags, summary: 'Start a step-through session', protect: true } })
    .input(S.StepStartInput)
    .output(S.StepState)
    .mutation(({ ctx, input }) => startStep(ctx, input)),
  stepAdvance: executeProcedure
    .meta({ openapi: { method: 'POST', path: '/execute/step/{sessionId}', tags, summary: 'Advance a step session by one node', protect: true } })
    .input(S.StepAdvanceInput)
    .output(S.StepState)
    .mutation(({ ctx, input }) => advanceStep(ctx, input.sessionId, input.node_outputs)),
  list: readProcedure
    .meta({ openapi: { method: 'GET', path: '/executions', tags, summary: 'Execution history with status, timing and errors', protect: true } })
    .input(S.ListInput)
    .output(S.ExecutionList)
    .query(({ ctx, input }) => listExecutions(ctx, input)),
  get: readProcedure
    .meta({ openapi: { method: 'GET', path: '/executions/{id}', tags, summary: 'One execution with per-node inputs, outputs, timing and logs', protect: true } })
    .input(S.ExecutionDetail.pick({ id: true }))
    .output(S.ExecutionDetail)
    .query(({ ctx, input }) => getExecution(ctx, input.id)),
  stats: readProcedure
    .meta({ openapi: { method: 'GET', path: '/stats', tags, summary: 'Success rate, average duration, error distribution by node type', protect: true } })
    .input(S.StatsInput)
    .output(S.Stats)
    .query(({ ctx, input }) => executionStats(ctx, input)),
});
