import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { generateHl7Mapping } from '@/server/services/copilot/copilot';
import { TAGS } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const hl7Mapping = limited(readProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/generate/hl7-mapping',
      tags: TAGS,
      summary: DOCS['hl7-mapping'].summary,
      description: DOCS['hl7-mapping'].description,
      protect: true,
    },
  })
  .input(z.object({ message: z.string().min(8).max(1_000_000).describe('The sample HL7 v2 message (MSH first)') }))
  .output(
    z.object({
      message_type: z.string(),
      rules: z.array(z.object({ hl7: z.string(), fhir: z.array(z.string()), example: z.string() })),
      untraced: z.array(z.object({ hl7: z.string(), example: z.string() })),
      resources: z.number().int(),
    }),
  )
  .mutation(({ input }) => generateHl7Mapping(input.message));
