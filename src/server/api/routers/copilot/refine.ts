import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { refine } from '@/server/services/copilot/suggestions';
import { TAGS, Report, Node, Connection } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const refinePipeline = limited(writeProcedure)
  .meta({
    openapi: { method: 'POST', path: '/copilot/refine/pipeline', tags: TAGS, summary: DOCS['refine'].summary, protect: true },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), apply: z.boolean().default(false) }))
  .output(
    z.object({
      definition: z.object({ nodes: z.array(Node), connections: z.array(Connection) }),
      changes: z.array(z.string()),
      unresolved: z.array(z.string()),
      validation: Report,
      saved_version: z.number().int().nullable(),
      planner: z.literal('offline'),
    }),
  )
  .mutation(({ ctx, input }) => refine(ctx, input));
