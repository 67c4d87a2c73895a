import { writeProcedure } from '@/server/api/trpc';
import { createAgent } from '@/server/services/agents/create-agent';
import * as S from './agent.schema';

export const create = writeProcedure
  .meta({ audit: { action: 'agent.create' } })
  .meta({
    openapi: { method: 'POST', path: '/agents', tags: S.TAGS, summary: 'Create an agent (or copy a base template with template_id)', protect: true },
    successStatus: 201,
    errors: ['MODEL_NOT_FOUND'],
  })
  .input(S.CreateAgentInput)
  .output(S.Agent)
  .mutation(async ({ ctx, input }) => {
    const agent = await createAgent(ctx, input);
    ctx.response.headers.Location = `/api/agents/${agent.id}`;
    return agent;
  });
