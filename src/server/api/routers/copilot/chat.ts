import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { copilotChat } from '@/server/services/copilot/chat';
import { TAGS, Report, Node, Connection, CopilotChatInput } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const chat = limited(writeProcedure)
  .meta({
    openapi: { method: 'POST', path: '/copilot/chat', tags: TAGS, summary: DOCS['chat'].summary, description: DOCS['chat'].description, protect: true },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(CopilotChatInput)
  .output(
    z.object({
      response: z.string(),
      reasoning_steps: z.array(z.object({ type: z.literal('thinking'), content: z.string() })),
      pipeline: z.object({ name: z.string().optional(), nodes: z.array(Node), connections: z.array(Connection) }).nullable(),
      validation: Report.nullable(),
      dry_run: z.unknown(),
    }),
  )
  .mutation(({ ctx, input }) => copilotChat(ctx, input));
