'use client';

import { useCallback, useRef, useState } from 'react';
import { api } from '@/trpc/react';
import type { ChatMessage, Step, StoredMessage } from '../types';
import { ChatRequestError, streamChat, type ChatEvent } from './chat-stream';

let seq = 0;
const key = () => `m${++seq}`;

export function fromStored(m: StoredMessage): ChatMessage {
  return { key: m.id, role: m.role, content: m.content, steps: m.reasoning_steps as Step[], status: m.status, error: m.error?.message ?? null };
}

/** The answer being streamed, with one event applied. */
function apply(m: ChatMessage, e: ChatEvent): ChatMessage {
  switch (e.event) {
    case 'thinking':
      return { ...m, steps: [...m.steps, { type: 'thinking', content: e.data.content }] };
    case 'tool_call':
      return { ...m, steps: [...m.steps, { type: 'tool_call', tool: e.data.tool, params: e.data.params, pending: true }] };
    case 'tool_result': {
      const i = m.steps.findIndex((s) => s.type === 'tool_call' && s.pending);
      if (i < 0) return m;
      return { ...m, steps: m.steps.map((s, n) => (n === i && s.type === 'tool_call' ? { ...s, result: e.data.result, pending: false } : s)) };
    }
    case 'message':
      return { ...m, content: m.content + e.data.content };
    case 'done':
      return { ...m, status: 'complete' };
    case 'error':
      return { ...m, status: 'failed', error: e.data.error.message };
  }
}

/**
 * The playground's conversation: its messages (loaded or streamed), sending a message (continuing the
 * conversation once it has an id), loading a stored one and starting afresh.
 */
export function useChat(agentId: string) {
  const utils = api.useUtils();
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const userKey = key();
      const answerKey = key();
      const update = (f: (m: ChatMessage) => ChatMessage) => setMessages((all) => all.map((m) => (m.key === answerKey ? f(m) : m)));
      setError(null);
      setSending(true);
      setMessages((all) => [
        ...all,
        { key: userKey, role: 'user', content: text, steps: [], status: 'complete' },
        { key: answerKey, role: 'assistant', content: '', steps: [], status: 'streaming' },
      ]);
      abort.current = new AbortController();
      try {
        await streamChat(
          agentId,
          { message: text, ...(conversationId ? { conversation_id: conversationId } : {}) },
          { onStart: (id) => id && setConversationId(id), onEvent: (e) => update((m) => apply(m, e)) },
          abort.current.signal,
        );
        update((m) => (m.status === 'streaming' ? { ...m, status: 'interrupted', error: 'The answer stopped before it finished.' } : m));
        return true;
      } catch (e) {
        if ((e as Error).name === 'AbortError') return true;
        if (e instanceof ChatRequestError) {
          // refused before anything was saved: take the message back out (the composer gets it back) and say why
          setMessages((all) => all.filter((m) => m.key !== answerKey && m.key !== userKey));
          setError(e.message);
          return false;
        }
        update((m) => ({
          ...m,
          status: 'interrupted',
          error: 'The connection to the server broke off; the answer may still be saved: open it from the history.',
        }));
      } finally {
        setSending(false);
        void utils.agents.conversations.invalidate({ id: agentId });
      }
      return true;
    },
    [agentId, conversationId, utils],
  );

  const load = useCallback(
    async (cid: string) => {
      abort.current?.abort();
      setError(null);
      try {
        const c = await utils.agents.conversation.fetch({ id: agentId, cid });
        setConversationId(c.id);
        setMessages(c.messages.map(fromStored));
      } catch (e) {
        setError((e as Error).message);
      }
    },
    [agentId, utils],
  );

  const reset = useCallback(() => {
    abort.current?.abort();
    setSending(false);
    setConversationId(null);
    setMessages([]);
    setError(null);
  }, []);

  return { conversationId, messages, sending, error, send, load, reset };
}
