import { executeProcedure } from '@/server/api/trpc';
import { advanceStep, startStep } from '@/server/services/executions/step';
import * as S from './execution.schema';

export const stepStart = executeProcedure
  .meta({
    openapi: { method: 'POST', path: '/execute/step', tags: S.TAGS, summary: 'Start a step-through session', protect: true },
    errors: ['PIPELINE_NOT_FOUND', 'PIPELINE_INVALID', 'PIPELINE_NOT_DEPLOYED'],
  })
  .input(S.StepStartInput)
  .output(S.StepState)
  .mutation(({ ctx, input }) => startStep(ctx, input));

export const stepAdvance = executeProcedure
  .meta({
    openapi: { method: 'POST', path: '/execute/step/{sessionId}', tags: S.TAGS, summary: 'Advance a step session by one node', protect: true },
    errors: ['STEP_SESSION_NOT_FOUND', 'STEP_SESSION_EXPIRED', 'STEP_SESSION_FINISHED'],
  })
  .input(S.StepAdvanceInput)
  .output(S.StepState)
  .mutation(({ ctx, input }) => advanceStep(ctx, input.sessionId, input.node_outputs));
