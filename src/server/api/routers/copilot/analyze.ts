import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { analyze } from '@/server/services/copilot/copilot';
import { TAGS, Report } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const analyzeOne = limited(readProcedure)
  .meta({
    openapi: { method: 'POST', path: '/copilot/analyze', tags: TAGS, summary: DOCS['analyze'].summary, protect: true },
    errors: ['PIPELINE_NOT_FOUND', 'AGENT_NOT_FOUND'],
  })
  .input(z.object({ pipeline_id: z.string().optional(), definition: z.unknown().optional(), agent_id: z.string().optional() }))
  .output(Report.extend({ kind: z.enum(['pipeline', 'agent']), id: z.string().nullable() }))
  .mutation(({ ctx, input }) => analyze(ctx, input));
