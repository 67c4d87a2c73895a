import { readProcedure } from '@/server/api/trpc';
import { listAgents } from '@/server/services/agents/list-agents';
import * as S from './agent.schema';

export const list = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/agents', tags: S.TAGS, summary: 'List agents (or, with base_templates=true, the built-in templates)', protect: true },
  })
  .input(S.ListAgentsInput)
  .output(S.AgentList)
  .query(({ ctx, input }) => listAgents(ctx, input));
