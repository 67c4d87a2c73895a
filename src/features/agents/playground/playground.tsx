'use client';

import { History, MessageSquarePlus, MessagesSquare, Send } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ChatMessage } from './chat-message';
import { ConversationHistory } from './conversation-history';
import { useChat } from './use-chat';
import { cn } from '@/components/ui/cn';

/** Chat with the agent as it is configured now: answers stream in with their thoughts and tool calls. */
export function Playground({ agentId, disabledReason }: { agentId: string; disabledReason?: string | null }) {
  const chat = useChat(agentId);
  const [text, setText] = useState('');
  const [showHistory, setShowHistory] = useState(false);
  const region = useRef<HTMLDivElement>(null);
  const last = chat.messages.at(-1);

  useEffect(() => {
    // follow the answer as it grows (inside the panel only: the page itself stays where it is)
    const el = region.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [chat.messages.length, last?.content.length, last?.steps.length]);

  async function submit() {
    const message = text.trim();
    if (!message || chat.sending) return;
    setText('');
    if (!(await chat.send(message))) setText(message);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  return (
    <Card className="flex h-[calc(100vh-10.5rem)] min-h-[32rem] flex-col overflow-hidden">
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-slate-900">Playground</h2>
          <p className="truncate text-xs text-slate-500">
            {chat.conversationId ? 'Continuing this conversation' : 'A new conversation starts with your first message'}
          </p>
        </div>
        <Button
          variant={showHistory ? 'primary' : 'secondary'}
          size="sm"
          icon={<History className="size-3.5" aria-hidden />}
          aria-pressed={showHistory}
          onClick={() => setShowHistory(!showHistory)}
        >
          History
        </Button>
        <Button
          variant="secondary"
          size="sm"
          icon={<MessageSquarePlus className="size-3.5" aria-hidden />}
          onClick={() => {
            chat.reset();
            setShowHistory(false);
          }}
        >
          New conversation
        </Button>
      </header>
      <div ref={region} className="min-h-0 flex-1 overflow-y-auto" role="region" aria-label={showHistory ? 'Conversation history' : 'Conversation'}>
        {showHistory ? (
          <ConversationHistory
            agentId={agentId}
            current={chat.conversationId}
            onOpen={(id) => {
              setShowHistory(false);
              void chat.load(id);
            }}
          />
        ) : chat.messages.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 px-8 text-center text-sm text-slate-500">
            <MessagesSquare className="size-6 text-slate-400" aria-hidden />
            <p>Ask the agent something. Its thoughts and tool calls appear as it works, then the answer.</p>
          </div>
        ) : (
          <ol className="space-y-5 p-4" aria-label="Messages">
            {chat.messages.map((m) => (
              <ChatMessage key={m.key} message={m} />
            ))}
          </ol>
        )}
      </div>
      <form
        className="space-y-2 border-t border-slate-200 bg-slate-50/60 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {chat.error ? <Alert>{chat.error}</Alert> : null}
        {disabledReason ? <Alert tone="warning">{disabledReason}</Alert> : null}
        <div className="flex items-end gap-2">
          <textarea
            aria-label="Message"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            rows={2}
            placeholder="Message the agent (Enter sends, Shift+Enter for a new line)"
            className={cn(
              'block max-h-40 min-h-[2.5rem] w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-sm',
              'shadow-sm placeholder:text-slate-400 focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
            )}
          />
          <Button type="submit" icon={<Send className="size-4" aria-hidden />} loading={chat.sending} disabled={!text.trim() || Boolean(disabledReason)}>
            Send
          </Button>
        </div>
      </form>
    </Card>
  );
}
