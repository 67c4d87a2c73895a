'use client';

import { MessagesSquare } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import { QueryState } from '@/components/ui/query-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { api } from '@/trpc/react';

/** The agent's past conversations, most recent first; a click opens one. */
export function ConversationHistory({ agentId, current, onOpen }: { agentId: string; current: string | null; onOpen: (id: string) => void }) {
  const list = api.agents.conversations.useQuery({ id: agentId, limit: 50, offset: 0 });
  return (
    <QueryState
      query={list}
      what="conversations"
      isEmpty={(d) => d.conversations.length === 0}
      empty={
        <p className="flex flex-col items-center gap-2 px-6 py-12 text-center text-sm text-slate-500">
          <MessagesSquare className="size-5 text-slate-400" aria-hidden />
          No conversations yet: send a message to start one.
        </p>
      }
    >
      {(d) => (
        <ul className="divide-y divide-slate-100" aria-label="Conversations">
          {d.conversations.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => onOpen(c.id)}
                aria-current={c.id === current || undefined}
                className={cn('block w-full px-4 py-2.5 text-left hover:bg-slate-50', c.id === current && 'bg-teal-50/60')}
              >
                <span className="block truncate text-sm font-medium text-slate-800">{c.title || 'Untitled conversation'}</span>
                <span className="text-xs text-slate-500">
                  {c.message_count} messages · {c.source} · <RelativeTime iso={c.updated_at} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}
