import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { copilotHealth } from '@/server/services/copilot/copilot';
import { TAGS } from './copilot.schema';
import { DOCS } from './docs';

export const health = readProcedure
  .meta({ openapi: { method: 'GET', path: '/copilot/health', tags: TAGS, summary: DOCS['health'].summary, protect: true } })
  .input(z.object({}))
  .output(
    z.object({
      status: z.literal('ok'),
      planner: z.enum(['offline', 'llm']).describe('The planner generate/pipeline and chat use when a request names no model'),
      default_model: z.string().describe('COPILOT_MODEL'),
      planners: z.array(z.object({ id: z.string(), available: z.boolean(), detail: z.string() })),
      catalog: z.object({ node_types: z.number().int() }),
      models: z.array(z.string()),
      limit_per_minute: z.number().int(),
    }),
  )
  .query(() => copilotHealth());
