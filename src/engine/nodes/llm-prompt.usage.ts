import type { LanguageModelUsage } from 'ai';
import { NodeError } from '../node-error';
import type { NodeContext } from '../node-type';

export interface NodeUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  latency_ms: number;
}

/** The usage a node reports (and logs) for one model call. */
export function recordUsage(ctx: NodeContext, model: string, usage: LanguageModelUsage, startedAt: number): NodeUsage {
  const u = {
    model,
    input_tokens: usage.inputTokens ?? 0,
    output_tokens: usage.outputTokens ?? 0,
    total_tokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
    latency_ms: Math.round(performance.now() - startedAt),
  };
  ctx.log('info', `${model}: ${u.input_tokens} input + ${u.output_tokens} output tokens in ${u.latency_ms} ms`);
  ctx.services.modelCall(u);
  return u;
}

/** A provider's failure as the node's error (AI SDK errors carry the provider's message; keys never appear in it). */
export function llmFailure(e: unknown): never {
  if (e instanceof NodeError) throw e;
  const message = e instanceof Error ? e.message : String(e);
  throw new NodeError('LLM_FAILED', `The language model call failed: ${message.slice(0, 500)}`);
}
