import { writeProcedure } from '@/server/api/trpc';
import { updateAgent } from '@/server/services/agents/update-agent';
import { NOT_FOUND } from './errors';
import * as S from './agent.schema';

export const update = writeProcedure
  .meta({ audit: { action: 'agent.save' } })
  .meta({
    openapi: { method: 'PUT', path: '/agents/{id}', tags: S.TAGS, summary: 'Update an agent', protect: true },
    errors: [...NOT_FOUND, 'MODEL_NOT_FOUND', 'AGENT_DEPLOYED'],
  })
  .input(S.UpdateAgentInput)
  .output(S.Agent)
  .mutation(({ ctx, input }) => {
    const { id, ...fields } = input;
    return updateAgent(ctx, id, fields);
  });
