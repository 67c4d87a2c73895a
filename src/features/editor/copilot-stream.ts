import { readJsonEvents } from '@/features/agents/playground/sse';
import type { CopilotEvent } from '@/shared/copilot-events';
import type { Definition } from './definition';

/** A refusal before the stream started (the JSON error body: the copilot's limit, a bad request), or a broken connection. */
export class CopilotRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * One copilot chat turn, streamed (POST /api/copilot/chat with stream: true): about the canvas given (a change to
 * it or a review of it), or a new design when there is none. `onEvent` gets each event as it arrives; resolves when
 * the stream ends, rejects with CopilotRequestError on a refusal.
 */
export async function streamCopilotChat(
  message: string,
  definition: Definition | null,
  onEvent: (e: CopilotEvent) => void,
  options: { model?: string | null; signal?: AbortSignal } = {},
): Promise<void> {
  const res = await fetch('/api/copilot/chat', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ message, stream: true, context: definition ? { definition } : {}, ...(options.model ? { model: options.model } : {}) }),
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new CopilotRequestError(body?.error?.message ?? `The server answered ${res.status}.`, res.status);
  }
  await readJsonEvents<CopilotEvent>(res.body, onEvent);
}
