import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { suggest } from '@/server/services/copilot/suggestions';
import { TAGS, Suggestion } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const suggestions = limited(writeProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/suggestions',
      tags: TAGS,
      summary: DOCS['suggestions'].summary,
      description: DOCS['suggestions'].description,
      protect: true,
    },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(z.object({ pipeline_id: z.string() }))
  .output(z.object({ pipeline_id: z.string(), pipeline_version: z.number().int(), suggestions: z.array(Suggestion) }))
  .mutation(({ ctx, input }) => suggest(ctx, input));
