import { writeProcedure } from '@/server/api/trpc';
import { deployAgent, undeployAgent } from '@/server/services/agents/lifecycle';
import { NOT_FOUND } from './errors';
import * as S from './agent.schema';

export const deploy = writeProcedure
  .meta({ audit: { action: 'agent.deploy' } })
  .meta({
    openapi: {
      method: 'POST',
      path: '/agents/{id}/deploy',
      tags: S.TAGS,
      summary: 'Deploy: the agent can be invoked publicly and from pipelines (its configuration is kept as a version)',
      protect: true,
    },
    errors: [...NOT_FOUND, 'AGENT_INACTIVE', 'AGENT_INVALID'],
  })
  .input(S.AgentId)
  .output(S.Agent)
  .mutation(({ ctx, input }) => deployAgent(ctx, input.id));

export const undeploy = writeProcedure
  .meta({ audit: { action: 'agent.undeploy' } })
  .meta({
    openapi: { method: 'POST', path: '/agents/{id}/undeploy', tags: S.TAGS, summary: 'Undeploy: back to active', protect: true },
    errors: [...NOT_FOUND, 'AGENT_NOT_DEPLOYED'],
  })
  .input(S.AgentId)
  .output(S.Agent)
  .mutation(({ ctx, input }) => undeployAgent(ctx, input.id));
