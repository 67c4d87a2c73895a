import { NodeError } from '@/engine/node-error';
import type { AgentAnswer, NodeServices } from '@/engine/node-type';
import { AppError } from '@/server/errors';
import type { RunHost, ServiceContext } from '../context';
import { invokeAgent } from './chat';
import { recordModelCall } from './model-calls';

/**
 * The agents' part of a running node's services (NodeServices.agent, .modelCall), for a pipeline of `orgId`: an
 * agent turn as the pipeline's organization (refusals and failures as the node's errors), and its nodes' language
 * model calls recorded with the organization's usage. The composition root (services/compose.ts) joins it in.
 */
export function agentServices(rt: RunHost, orgId: string): Pick<NodeServices, 'agent' | 'modelCall'> {
  return {
    agent: (id, input, options) => nodeTurn(rt, orgId, id, input, options.testMode),
    modelCall: (u) => {
      // not awaited: a node does not wait on bookkeeping (recordModelCall never throws)
      void recordModelCall(
        { db: rt.db, principal: { kind: 'api-key', orgId, scopes: [] } },
        { source: 'pipeline', model: u.model, usage: { inputTokens: u.input_tokens, outputTokens: u.output_tokens }, latencyMs: u.latency_ms },
      );
    },
  };
}

async function nodeTurn(rt: RunHost, orgId: string, id: string, input: Record<string, unknown>, testMode: boolean): Promise<AgentAnswer> {
  const ctx: ServiceContext = { db: rt.db, host: rt.host, channel: 'api', principal: { kind: 'api-key', orgId, scopes: ['execute'] } };
  try {
    const r = await invokeAgent(ctx, id, { input_data: input }, { source: 'pipeline', testMode });
    return { output: r.output, reasoning_steps: r.reasoning_steps, conversation_id: r.conversation_id, usage: r.usage };
  } catch (e) {
    if (e instanceof AppError) throw new NodeError(e.code, e.message);
    throw e;
  }
}
