import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { generatePipelineDocs } from '@/server/services/copilot/copilot';
import { TAGS } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const docs = limited(readProcedure)
  .meta({
    openapi: { method: 'POST', path: '/copilot/generate/pipeline-docs', tags: TAGS, summary: DOCS['pipeline-docs'].summary, protect: true },
    errors: ['PIPELINE_NOT_FOUND'],
  })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), name: z.string().max(200).optional() }))
  .output(z.object({ markdown: z.string(), valid: z.boolean() }))
  .mutation(({ ctx, input }) => generatePipelineDocs(ctx, input));
