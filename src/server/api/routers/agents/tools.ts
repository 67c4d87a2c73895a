import { z } from 'zod';
import { readProcedure, writeProcedure } from '@/server/api/trpc';
import { assignTool, listAgentTools, removeTool } from '@/server/services/agents/agent-tools';
import { NOT_FOUND } from './errors';
import * as S from './agent.schema';

export const tools = readProcedure
  .meta({
    openapi: { method: 'GET', path: '/agents/{id}/tools', tags: S.TAGS, summary: 'The tools assigned to the agent, with their settings', protect: true },
    errors: ['AGENT_NOT_FOUND'],
  })
  .input(S.AgentId)
  .output(S.AssignedToolList)
  .query(({ ctx, input }) => listAgentTools(ctx, input.id));

export const assign = writeProcedure
  .meta({
    openapi: { method: 'POST', path: '/agents/{id}/tools', tags: S.TAGS, summary: 'Assign a tool (or change its settings on this agent)', protect: true },
    successStatus: 201,
    errors: [...NOT_FOUND, 'TOOL_NOT_FOUND'],
  })
  .input(S.AssignToolInput)
  .output(S.AssignedTool)
  .mutation(({ ctx, input }) => assignTool(ctx, input.id, input));

export const unassign = writeProcedure
  .meta({
    openapi: { method: 'DELETE', path: '/agents/{id}/tools/{toolId}', tags: S.TAGS, summary: 'Remove a tool from the agent', protect: true },
    successStatus: 204,
    errors: [...NOT_FOUND, 'TOOL_NOT_ASSIGNED'],
  })
  .input(S.RemoveToolInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await removeTool(ctx, input.id, input.toolId);
  });
