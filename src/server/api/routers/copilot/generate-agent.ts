import { z } from 'zod';
import { writeProcedure } from '@/server/api/trpc';
import { generateAgent } from '@/server/services/copilot/copilot';
import { TAGS, Description } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const agent = limited(writeProcedure)
  .meta({ openapi: { method: 'POST', path: '/copilot/generate/agent', tags: TAGS, summary: DOCS['generate-agent'].summary, protect: true } })
  .input(z.object({ description: Description, create: z.boolean().default(false) }))
  .output(
    z.object({
      agent: z.object({
        id: z.string().nullable(),
        name: z.string(),
        agent_type: z.string(),
        description: z.string(),
        model_config: z.object({ model: z.string(), temperature: z.number(), max_tokens: z.number() }),
        instructions: z.string(),
        prompt_template: z.string(),
        tools: z.array(z.string()),
      }),
      reasoning: z.array(z.string()),
      problems: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .describe('What would keep it from being deployed (e.g. a tool needing a connector)'),
      planner: z.literal('offline'),
    }),
  )
  .mutation(({ ctx, input }) => generateAgent(ctx, input));
