import { z } from 'zod';
import { listLanguageModels } from '@/server/ai/models';
import { readProcedure } from '@/server/api/trpc';

const Entry = z.object({
  id: z.string().meta({ description: 'provider/model, e.g. openai/gpt-4o-mini; clinflow/offline is the rule-based offline model' }),
  provider: z.string(),
  name: z.string(),
  capabilities: z.array(z.enum(['chat', 'tools', 'structured-output', 'vision', 'streaming'])),
  context_window: z.number().int(),
  pricing_tier: z.enum(['free', 'low', 'medium', 'high']),
  available: z.boolean().meta({ description: 'Its provider is configured on this server (API key or endpoint in env)' }),
});

export const list = readProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/llm-models',
      tags: ['Language models'],
      summary: 'List the language models and whether each is available',
      protect: true,
    },
  })
  .input(z.object({}))
  .output(z.object({ models: z.array(Entry) }))
  .query(() => ({ models: listLanguageModels() }));
