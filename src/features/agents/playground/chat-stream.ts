import type { AgentEvent } from '@/shared/agent-events';
import { readJsonEvents } from './sse';

/** What the agent chat stream sends (POST /api/agents/{id}/chat with stream: true). */
export type ChatEvent = AgentEvent;

/** A refusal before the stream started (JSON error body), or a broken connection. */
export class ChatRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

async function refusal(res: Response): Promise<ChatRequestError> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  const code = body?.error?.code ?? 'HTTP_ERROR';
  let message = body?.error?.message ?? `The server answered ${res.status}.`;
  const retry = res.headers.get('Retry-After');
  if (res.status === 429 && retry) message = `Too many chat messages right now: try again in ${retry} s.`;
  return new ChatRequestError(message, res.status, code);
}

/**
 * Sends one chat message and streams the answer: `onStart` gets the conversation id (X-Conversation-ID), then
 * `onEvent` each event as it arrives. Resolves when the stream ends; rejects with ChatRequestError on a refusal.
 */
export async function streamChat(
  agentId: string,
  body: { message: string; conversation_id?: string },
  handlers: { onStart: (conversationId: string | null) => void; onEvent: (e: ChatEvent) => void },
  signal?: AbortSignal,
): Promise<void> {
  const res = await fetch(`/api/agents/${encodeURIComponent(agentId)}/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ ...body, stream: true }),
    credentials: 'same-origin',
    signal,
  });
  if (!res.ok || !res.body) throw await refusal(res);
  handlers.onStart(res.headers.get('X-Conversation-ID'));
  await readJsonEvents<ChatEvent>(res.body, handlers.onEvent);
}
