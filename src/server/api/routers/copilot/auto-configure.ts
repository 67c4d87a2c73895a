import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { autoConfigure } from '@/server/services/copilot/configure';
import { TAGS, Report, Node, Connection, Description } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const autoConfigurePipeline = limited(writeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/auto-configure/pipeline',
      tags: TAGS,
      summary: DOCS['auto-configure'].summary,
      description: DOCS['auto-configure'].description,
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(
    z.object({
      pipeline_id: z.string().optional(),
      definition: z.unknown().optional(),
      description: Description.optional(),
      apply: z.boolean().default(false),
    }),
  )
  .output(
    z.object({
      definition: z.object({ nodes: z.array(Node), connections: z.array(Connection) }),
      changes: z.array(z.object({ node_id: z.string(), filled: z.array(z.string()), missing: z.array(z.string()) })),
      validation: Report,
      saved_version: z.number().int().nullable(),
      planner: z.literal('offline'),
    }),
  )
  .mutation(({ ctx, input }) => autoConfigure(ctx, input));
