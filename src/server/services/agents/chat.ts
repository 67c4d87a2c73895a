import { AppError, type ErrorCode } from '@/server/errors';
import type { ServiceContext } from '../context';
import { startTurn, type Turn, type TurnOptions, type TurnResult } from './turn';

export interface ChatInput {
  message: string;
  conversation_id?: string;
  version?: number;
}

/** A failed turn, for answers that are not streams: the saved message says what happened, the status too. */
function settled(r: TurnResult): TurnResult {
  if (r.status === 'failed' && r.error)
    throw new AppError(r.error.code as ErrorCode, r.error.message, { conversation_id: r.conversation_id, message_id: r.message_id });
  return r;
}

/** POST /api/agents/{id}/chat (and …/conversations/{cid}/messages): one turn, streamed or answered whole. */
export function chatTurn(ctx: ServiceContext, agentId: string, input: ChatInput): Promise<Turn> {
  return startTurn(ctx, agentId, { message: input.message, conversationId: input.conversation_id, version: input.version, source: 'chat' });
}

export async function chat(ctx: ServiceContext, agentId: string, input: ChatInput) {
  const r = settled(await (await chatTurn(ctx, agentId, input)).result);
  return { response: r.response, reasoning_steps: r.reasoning_steps, conversation_id: r.conversation_id, message_id: r.message_id, usage: r.usage };
}

/**
 * What an invocation's `input_data` means as a message: its `message`, `input` or `text` field, or its only
 * string field; otherwise the whole object as JSON. Every field is also a `{{field}}` of the prompt template.
 */
export function invocationMessage(data: Record<string, unknown>): string {
  for (const k of ['message', 'input', 'text']) if (typeof data[k] === 'string') return data[k] as string;
  const strings = Object.values(data).filter((v): v is string => typeof v === 'string');
  return strings.length === 1 && Object.keys(data).length === 1 ? strings[0]! : JSON.stringify(data);
}

/** Runs a deployed agent on `input_data` (public invoke, the `agent` node). */
export async function invokeAgent(
  ctx: ServiceContext,
  agentId: string,
  input: { input_data: Record<string, unknown>; conversation_id?: string },
  how: { source?: TurnOptions['source']; testMode?: boolean } = {},
) {
  const { source = 'invoke', testMode = false } = how;
  // a pipeline's test run may use an agent not deployed yet (as test mode runs pipelines that are not)
  const turn = await startTurn(ctx, agentId, {
    message: invocationMessage(input.input_data),
    values: input.input_data,
    conversationId: input.conversation_id,
    source,
    requireDeployed: !testMode,
    testMode,
  });
  const r = settled(await turn.result);
  return { agent_id: agentId, output: r.response, reasoning_steps: r.reasoning_steps, conversation_id: r.conversation_id, usage: r.usage };
}
