import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { generateFhirQueries } from '@/server/services/copilot/copilot';
import { TAGS, Description } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const fhirQueries = limited(readProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/generate/fhir-queries',
      tags: TAGS,
      summary: DOCS['fhir-queries'].summary,
      description: DOCS['fhir-queries'].description,
      protect: true,
    },
  })
  .input(z.object({ description: Description }))
  .output(z.object({ queries: z.array(z.string()), reasoning: z.array(z.string()), planner: z.literal('offline') }))
  .mutation(({ input }) => generateFhirQueries(input.description));
