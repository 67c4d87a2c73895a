import type { z } from 'zod';
import type { Principal } from '@/server/auth/principal';
import type { UserLimit } from '@/server/auth/user-limits';
import { hasScope } from '@/server/auth/scopes';
import { AppError } from '@/server/errors';
import type { Runtime } from '@/server/runtime';
import { chatTurn } from '@/server/services/agents/chat';
import { toEventStream } from '@/server/services/agents/event-channel';
import { serviceContext } from '@/server/services/context';
import { copilotChatEvents } from '@/server/services/copilot/chat';
import { ChatInput, SendMessageInput, sentText } from '../routers/agents/agent.schema';
import { CopilotChatInput } from '../routers/copilot/copilot.schema';

const STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' };
const CHAT = /^\/agents\/([^/]+)\/chat$/;
const SEND = /^\/agents\/([^/]+)\/conversations\/([^/]+)\/messages$/;
const INVOKE = /^\/v1\/agents\/([^/]+)\/invoke$/;

/** Whether a REST request is agent chat (chat, a conversation's message, public invoke): 60 a minute per user or key. */
export function isAgentChat(method: string, path: string): boolean {
  return method === 'POST' && (CHAT.test(path) || SEND.test(path) || INVOKE.test(path));
}

/** Which per-user limit a REST request counts against, if any. */
export function userLimitOf(method: string, path: string): UserLimit | undefined {
  if (isAgentChat(method, path)) return 'chat';
  // the health probe is not a copilot request
  return path.startsWith('/copilot/') && path !== '/copilot/health' ? 'copilot' : undefined;
}

export function parsed<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const details = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new AppError('VALIDATION_FAILED', `Invalid request: ${details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ')}`, details);
}

/**
 * Agent chat (and copilot chat) with `stream: true`, answered as Server-Sent Events (spec part 6) rather than through the procedure:
 * the same checks first (scope, body, agent, model, conversation — ordinary JSON errors), then the stream. The
 * conversation's id is in X-Conversation-ID. Undefined when the request does not ask for a stream.
 */
export async function streamedChat(rt: Runtime, principal: Principal, path: string, body: unknown): Promise<Response | undefined> {
  if (!body || typeof body !== 'object' || (body as { stream?: unknown }).stream !== true) return undefined;
  if (path === '/copilot/chat') {
    if (!hasScope(principal.scopes, 'write')) throw new AppError('FORBIDDEN', 'This key lacks the "write" scope needed for this operation.');
    const input = parsed(CopilotChatInput, body);
    const events = await copilotChatEvents(serviceContext(rt, principal), input);
    return new Response(toEventStream(events), { status: 200, headers: STREAM_HEADERS });
  }
  const chat = CHAT.exec(path);
  const send = SEND.exec(path);
  if (!chat && !send) return undefined;
  if (!hasScope(principal.scopes, 'execute')) throw new AppError('FORBIDDEN', 'This key lacks the "execute" scope needed for this operation.');
  const ctx = serviceContext(rt, principal);
  const turn = chat
    ? await (async () => {
        const input = parsed(ChatInput, { ...body, id: decodeURIComponent(chat[1]!) });
        return chatTurn(ctx, input.id, input);
      })()
    : await (async () => {
        const input = parsed(SendMessageInput, { ...body, id: decodeURIComponent(send![1]!), cid: decodeURIComponent(send![2]!) });
        return chatTurn(ctx, input.id, { message: sentText(input), conversation_id: input.cid, version: input.version });
      })();
  return new Response(toEventStream(turn.events), { status: 200, headers: { ...STREAM_HEADERS, 'X-Conversation-ID': turn.conversationId } });
}
