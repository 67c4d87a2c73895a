import { Bot, Loader2, User } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import type { ChatMessage as Message } from '../types';
import { ReasoningSteps } from './reasoning-steps';

/** One message of the conversation: the user's, or the agent's with its steps and the answer as it grows. */
export function ChatMessage({ message: m }: { message: Message }) {
  const user = m.role === 'user';
  const Icon = user ? User : Bot;
  return (
    <li className={cn('flex gap-2.5', user && 'flex-row-reverse')} data-testid={`message-${m.role}`} data-status={m.status}>
      <span
        className={cn(
          'mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full',
          user ? 'bg-slate-200 text-slate-600' : 'bg-teal-50 text-teal-700',
        )}
        aria-hidden
      >
        <Icon className="size-4" />
      </span>
      <div className={cn('min-w-0 space-y-2', user ? 'max-w-[85%]' : 'flex-1')}>
        {user ? (
          <p className="max-h-40 overflow-y-auto rounded-lg bg-slate-100 px-3 py-2 text-sm break-words whitespace-pre-wrap text-slate-800">{m.content}</p>
        ) : (
          <>
            <ReasoningSteps steps={m.steps} />
            {m.content ? (
              <div className="text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-900" data-testid="answer">
                {m.content}
                {m.status === 'streaming' ? <span className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-teal-600 align-text-bottom" aria-hidden /> : null}
              </div>
            ) : m.status === 'streaming' ? (
              <p className="flex items-center gap-1.5 text-xs text-slate-500">
                <Loader2 className="size-3.5 animate-spin" aria-hidden /> Thinking…
              </p>
            ) : null}
            {m.error ? <p className="text-xs text-red-700">{m.error}</p> : null}
          </>
        )}
      </div>
    </li>
  );
}
