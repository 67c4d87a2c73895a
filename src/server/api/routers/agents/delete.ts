import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { deleteAgent } from '@/server/services/agents/delete-agent';
import { NOT_FOUND } from './errors';
import * as S from './agent.schema';

export const remove = writeProcedure
  .meta({ audit: { action: 'agent.delete' } })
  .meta({
    openapi: { method: 'DELETE', path: '/agents/{id}', tags: S.TAGS, summary: 'Delete an agent that is not deployed, with its conversations', protect: true },
    successStatus: 204,
    errors: [...NOT_FOUND, 'AGENT_DEPLOYED'],
  })
  .input(S.AgentId)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteAgent(ctx, input.id);
  });
