import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { modifyForCopilot } from '@/server/services/copilot/modify';
import { TAGS, Report, Node, Connection, Diff, Description } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const modifyPipelineOp = limited(writeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/modify/pipeline',
      tags: TAGS,
      summary: DOCS['modify'].summary,
      description: DOCS['modify'].description,
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND', 'MODEL_NOT_FOUND', 'MODEL_UNAVAILABLE'],
  })
  .input(
    z.object({
      pipeline_id: z.string().optional(),
      definition: z.unknown().optional(),
      request: Description,
      apply: z.boolean().default(false),
      model: z.string().max(200).optional(),
      sample_input: z.unknown().optional(),
    }),
  )
  .output(
    z.object({
      definition: z.object({ nodes: z.array(Node), connections: z.array(Connection) }),
      changes: z.array(z.string()),
      unresolved: z.array(z.string()),
      validation: Report,
      diff: Diff,
      dry_run: z.unknown(),
      saved_version: z.number().int().nullable(),
      planner: z.enum(['offline', 'llm']),
      model: z.string(),
      reasoning: z.array(z.string()),
    }),
  )
  .mutation(({ ctx, input }) => modifyForCopilot(ctx, input));
