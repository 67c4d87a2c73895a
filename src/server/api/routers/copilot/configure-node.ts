import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { configureNodeFor } from '@/server/services/copilot/configure';
import { TAGS, Description } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const configureNode = limited(readProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/configure/node',
      tags: TAGS,
      summary: DOCS['configure-node'].summary,
      description: DOCS['configure-node'].description,
      protect: true,
    },
    errors: ['NODE_TYPE_NOT_FOUND'],
  })
  .input(
    z.object({
      node_type: z.string().min(1).max(100),
      description: Description,
      config: z.record(z.string(), z.unknown()).optional().describe("The node's current config, kept where the description says nothing"),
    }),
  )
  .output(
    z.object({
      node_type: z.string(),
      config: z.record(z.string(), z.unknown()),
      valid: z.boolean(),
      problems: z.array(z.string()),
      filled: z.array(z.string()),
      missing: z.array(z.string()),
      planner: z.literal('offline'),
    }),
  )
  .mutation(async ({ ctx, input }) => configureNodeFor(ctx, input));
