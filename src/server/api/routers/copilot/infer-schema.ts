import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { inferSchema } from '@/server/copilot/infer-schema';
import { TAGS } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const infer = limited(readProcedure)
  .meta({
    openapi: {
      method: 'POST',
      path: '/copilot/infer/schema',
      tags: TAGS,
      summary: DOCS['infer-schema'].summary,
      description: DOCS['infer-schema'].description,
      protect: true,
    },
  })
  .input(z.object({ samples: z.array(z.unknown()).min(1).max(100).describe('JSON values: objects, arrays, scalars'), title: z.string().max(200).optional() }))
  .output(z.object({ schema: z.record(z.string(), z.unknown()), fits: z.boolean(), samples: z.number().int() }))
  .mutation(({ input }) => ({ ...inferSchema(input.samples, input.title), samples: input.samples.length }));
