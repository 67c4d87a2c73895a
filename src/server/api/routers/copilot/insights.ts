import { z } from 'zod';
import { readProcedure } from '@/server/api/trpc';
import { agentInsights } from '@/server/services/copilot/copilot';
import { TAGS } from './copilot.schema';
import { DOCS } from './docs';
import { limited } from './limited';

export const insights = limited(readProcedure)
  .meta({
    openapi: { method: 'GET', path: '/copilot/insights/{agentId}', tags: TAGS, summary: DOCS['insights'].summary, protect: true },
    errors: ['AGENT_NOT_FOUND'],
  })
  .input(z.object({ agentId: z.string() }))
  .output(
    z.object({
      agent_id: z.string(),
      period: z.object({ since: z.string(), until: z.string(), days: z.number() }),
      usage: z.object({
        turns: z.number(),
        failed_turns: z.number(),
        failure_rate: z.number(),
        conversations: z.number(),
        by_source: z.record(z.string(), z.number()),
        input_tokens: z.number(),
        output_tokens: z.number(),
        tool_calls: z.number(),
        latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
      }),
      failures: z.array(z.object({ code: z.string(), count: z.number() })),
      tools: z.array(z.object({ tool: z.string(), calls: z.number(), failures: z.number(), last_error: z.string().optional() })),
      recommendations: z.array(z.object({ kind: z.string(), message: z.string() })),
    }),
  )
  .query(({ ctx, input }) => agentInsights(ctx, input.agentId));
