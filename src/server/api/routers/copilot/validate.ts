import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { validateForCopilot } from '@/server/services/copilot/copilot';
import { TAGS, Report } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const validatePipeline = limited(readProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/validate/pipeline',
      tags: TAGS,
      summary: DOCS['validate'].summary,
      description: DOCS['validate'].description,
      protect: true,
    },
  })
  .input(z.object({ definition: z.unknown().describe('{nodes, connections}') }))
  .output(Report)
  .mutation(({ input }) => validateForCopilot(input.definition));
