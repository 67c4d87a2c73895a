import { readProcedure } from '@/server/api/trpc';
import { getAgent } from '@/server/services/agents/get-agent';
import * as S from './agent.schema';

export const get = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/agents/{id}', tags: S.TAGS, summary: 'Agent details (a base template too)', protect: true },
    errors: ['AGENT_NOT_FOUND'],
  })
  .input(S.AgentId)
  .output(S.Agent)
  .query(({ ctx, input }) => getAgent(ctx, input.id));
