import { modelCalls } from '@/server/db/schema';
import { logger } from '@/server/logger';
import type { ServiceContext } from '../context';

export interface ModelCall {
  source: (typeof modelCalls.$inferInsert)['source'];
  model: string;
  agentId?: string;
  conversationId?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
  latencyMs: number;
  toolCalls?: number;
  errorCode?: string;
}

/** Records one language model call (tokens, latency, outcome) for the agent's insights and stats. Never fails the caller. */
export async function recordModelCall(ctx: Pick<ServiceContext, 'db' | 'principal'>, call: ModelCall): Promise<void> {
  try {
    await ctx.db.insert(modelCalls).values({
      orgId: ctx.principal.orgId,
      agentId: call.agentId,
      conversationId: call.conversationId,
      source: call.source,
      model: call.model,
      inputTokens: call.usage?.inputTokens ?? 0,
      outputTokens: call.usage?.outputTokens ?? 0,
      latencyMs: Math.round(call.latencyMs),
      toolCalls: call.toolCalls ?? 0,
      ok: !call.errorCode,
      errorCode: call.errorCode,
    });
  } catch (e) {
    logger.warn('could not record a model call', { error: (e as Error).message });
  }
}
