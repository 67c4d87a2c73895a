import { executeProcedure } from '@/server/api/trpc';
import { execute as runExecute } from '@/server/services/executions/execute';
import * as S from './execution.schema';

const RUN_TO_NODE =
  [
    'run_to_node ("run to here") runs a test run only up to one node: that node and',
    'the nodes upstream of it run, nothing downstream of it or on other branches; ',
  ].join(' ') +
  'those are listed in node_results as skipped with reason not_requested. It needs test_mode: true and async: false (400 VALIDATION_FAILED otherwise); ' +
  'a node id the pipeline does not have is 404 NODE_NOT_FOUND. Disabled nodes do not run in any run: they pass their input through (skipped, reason disabled).';

export const execute = executeProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/execute',
      tags: S.TAGS,
      summary: 'Run a pipeline: sync (waits) or async (poll the execution)',
      description: RUN_TO_NODE,
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND', 'PIPELINE_NOT_DEPLOYED', 'PIPELINE_INVALID', 'CONCURRENCY_LIMIT', 'NODE_NOT_FOUND'],
  })
  .input(S.ExecuteInput)
  .output(S.ExecuteResult)
  .mutation(({ ctx, input }) => runExecute(ctx, input));
