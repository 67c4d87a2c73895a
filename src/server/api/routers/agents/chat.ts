import { chat } from '@/server/services/agents/chat';
import { chatLimited } from './chat-limited';
import { NOT_FOUND, RUN } from './errors';
import * as S from './agent.schema';

export const chatWith = chatLimited
  .meta({
    openapi: {
      method: 'POST',
      path: '/agents/{id}/chat',
      tags: S.TAGS,
      summary: 'Chat with an agent; stream: true answers with Server-Sent Events (thinking, tool_call, tool_result, message, done)',
      description: [
        'Limited to 60 requests per minute per user or API key. With stream: true the response is text/event-stream:',
        'each event is "event: NAME" and "data: JSON"; a failure during the stream is an "error" event',
        'carrying the error object, then the stream closes. The turn is saved even if the client goes away.',
      ].join(' '),
      protect: true,
    },
    errors: [...NOT_FOUND, ...RUN],
  })
  .input(S.ChatInput)
  .output(S.ChatOutput)
  .mutation(({ ctx, input }) => chat(ctx, input.id, input));

export const send = chatLimited
  .meta({
    openapi: {
      method: 'POST',
      path: '/agents/{id}/conversations/{cid}/messages',
      tags: S.TAGS,
      summary: "Send a message: the agent answers with the conversation's history (stream: true answers with Server-Sent Events)",
      description: 'Counts against the agent chat limit (60 per minute per user or API key).',
      protect: true,
    },
    errors: [...NOT_FOUND, ...RUN],
  })
  .input(S.SendMessageInput)
  .output(S.ChatOutput)
  .mutation(({ ctx, input }) => chat(ctx, input.id, { message: S.sentText(input), conversation_id: input.cid, version: input.version }));
