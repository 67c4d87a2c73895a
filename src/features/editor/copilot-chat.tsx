'use client';

import { AlertCircle, CheckCircle2, FlaskConical, Loader2, Send, Sparkles, Trash2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { ReasoningSteps } from '@/features/agents/playground/reasoning-steps';
import { FindingRow } from './copilot-preview';
import { Markdown } from './markdown';
import type { ChatStep, ChatTurn } from './store/chat';
import { useEditor } from './store-provider';
import { CopilotModelPicker } from './copilot-model';
import { changeKey, useCopilotChat, useCopilotFix } from './use-copilot-chat';
import { currentDefinition } from './store';

const EXAMPLES = ['Add a de-identification step before the FHIR write', 'Why does this fail?', 'Add retries to the writes'];

/** The validator's verdict on what the copilot proposed or reviewed, each finding with its Fix where the copilot has one. */
function ValidationStep({ report, fixable }: { report: Extract<ChatStep, { kind: 'validation' }>['report']; fixable: boolean }) {
  const fixOf = useCopilotFix();
  const { valid, errors, warnings } = report;
  return (
    <div
      data-testid="chat-validation"
      className={cn(
        'rounded-md border text-xs',
        !valid ? 'border-red-200 bg-red-50/60' : warnings.length ? 'border-amber-200 bg-amber-50/60' : 'border-emerald-200 bg-emerald-50/60',
      )}
    >
      <p
        className={cn('flex items-center gap-1.5 px-2.5 py-1.5 font-medium', !valid ? 'text-red-800' : warnings.length ? 'text-amber-900' : 'text-emerald-800')}
      >
        {valid ? <CheckCircle2 className="size-3.5" aria-hidden /> : <AlertCircle className="size-3.5" aria-hidden />}
        {valid
          ? `Valid${warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''}`
          : `Not valid: ${errors.length} error${errors.length === 1 ? '' : 's'}`}
      </p>
      {[...errors.map((f) => ({ f, error: true })), ...warnings.map((f) => ({ f, error: false }))].map(({ f, error }, i) => (
        <FindingRow key={i} f={f} error={error} onFix={fixable ? fixOf(f) : undefined} />
      ))}
    </div>
  );
}

/** One request and the copilot's answer: its steps as they streamed in, then its message. */
function Turn({ turn, last }: { turn: ChatTurn; last: boolean }) {
  const previewing = useEditor((s) => s.preview !== null);
  const { proposeChange, canvas } = useEditor((s) => ({
    proposeChange: s.proposeChange,
    canvas: turn.proposal && s.nodes.length ? changeKey(currentDefinition(s)) : '',
  }));
  const proposal = turn.proposal;
  const thoughts = turn.steps.flatMap((s) => (s.kind === 'thinking' ? [{ type: 'thinking' as const, content: s.content }] : []));
  return (
    <li className="space-y-2" data-testid="chat-turn" aria-busy={turn.pending || undefined}>
      <p className="ml-6 rounded-lg rounded-br-sm bg-teal-700 px-3 py-2 text-[13px] whitespace-pre-wrap text-white">{turn.request}</p>
      <div className="space-y-2">
        <ReasoningSteps steps={thoughts} />
        {turn.steps.map((s, i) =>
          s.kind === 'validation' ? (
            // a review's findings can be fixed; a proposal's are the proposal's own (accept it first)
            <ValidationStep key={i} report={s.report} fixable={turn.outcome === null && !turn.pending} />
          ) : s.kind === 'dry_run' ? (
            <p
              key={i}
              className={cn('flex items-center gap-1.5 text-xs', s.status === 'completed' ? 'text-emerald-700' : 'text-red-700')}
              data-testid="chat-dry-run"
            >
              <FlaskConical className="size-3.5" aria-hidden />
              Dry run: {s.status}
              {s.error ? ` at ${s.error}` : ''}
            </p>
          ) : null,
        )}
        {turn.pending ? (
          <p className="flex items-center gap-1.5 text-xs text-slate-500">
            <Loader2 className="size-3.5 animate-spin" aria-hidden /> Working…
          </p>
        ) : null}
        {turn.message ? (
          <div className="rounded-lg rounded-bl-sm bg-slate-100 px-3 py-2" data-testid="chat-message">
            <Markdown source={turn.message} />
          </div>
        ) : null}
        {turn.error ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800">
            {turn.error}
          </p>
        ) : null}
        {proposal && !turn.pending && !(last && previewing) ? (
          <Button
            size="sm"
            variant="secondary"
            data-testid="chat-show-proposal"
            disabled={canvas !== proposal.canvas}
            title={canvas !== proposal.canvas ? 'The canvas changed since this was proposed: ask again' : 'Draw this change on the canvas again'}
            onClick={() => proposeChange(proposal.definition, proposal.about, proposal.base)}
          >
            Show this change on the canvas
          </Button>
        ) : null}
        {turn.outcome === 'previewed' && last && previewing ? (
          <p className="text-xs font-medium text-violet-700">Drawn on the canvas: accept or discard it in the panel on the right.</p>
        ) : turn.outcome === 'unchanged' ? (
          <p className="text-xs text-slate-500">Nothing on the canvas would change.</p>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The copilot beside the canvas: ask for a change to the pipeline or why it fails; each answer's steps stream in,
 * and a change is drawn on the canvas for Accept or Discard. The conversation lasts as long as the editor is open.
 */
export function CopilotChat({ onClose }: { onClose: () => void }) {
  const { chat, clearChat, empty } = useEditor((s) => ({ chat: s.chat, clearChat: s.clearChat, empty: s.nodes.length === 0 }));
  const { ask } = useCopilotChat();
  const [text, setText] = useState('');
  const pending = chat.some((t) => t.pending);
  const end = useRef<HTMLDivElement>(null);
  const lastTurn = chat.at(-1);
  const progress = lastTurn ? `${lastTurn.id}:${lastTurn.steps.length}:${lastTurn.message?.length ?? 0}:${lastTurn.pending}` : '';
  // the newest step in sight as it streams in
  useEffect(() => {
    if (progress) end.current?.scrollIntoView({ block: 'end' });
  }, [progress]);

  function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    const request = text.trim();
    if (request.length < 3 || pending) return;
    setText('');
    void ask(request);
  }

  return (
    <section aria-label="Copilot chat" className="flex h-full flex-col bg-white">
      <header className="flex items-center gap-2 border-b border-slate-200 px-3 py-2">
        <Sparkles className="size-4 text-violet-600" aria-hidden />
        <h2 className="flex-1 text-sm font-semibold text-slate-900">Copilot</h2>
        {chat.length ? (
          <Button variant="ghost" size="icon" aria-label="Clear the conversation" title="Clear the conversation" onClick={clearChat} disabled={pending}>
            <Trash2 className="size-3.5" aria-hidden />
          </Button>
        ) : null}
        <Button variant="ghost" size="icon" aria-label="Close the copilot" title="Close the copilot" onClick={onClose}>
          <X className="size-4" aria-hidden />
        </Button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-3">
        {chat.length === 0 ? (
          <div className="space-y-3 text-xs text-slate-500">
            <p>
              {empty
                ? 'Describe the pipeline you want: the copilot designs it and draws it on the canvas for you to accept.'
                : [
                    'Ask for a change to this pipeline, or why it fails. The copilot works on the canvas',
                    'as it is, unsaved edits included; a change is drawn on the canvas for you to accept.',
                  ].join(' ')}
            </p>
            {empty ? null : (
              <div className="flex flex-col items-start gap-1.5" aria-label="Examples">
                {EXAMPLES.map((ex) => (
                  <button
                    key={ex}
                    type="button"
                    onClick={() => setText(ex)}
                    className={cn(
                      'rounded-full border border-slate-200 bg-slate-50 px-2.5 py-1 text-left',
                      'text-slate-600 hover:border-violet-300 hover:bg-violet-50 hover:text-violet-800',
                    )}
                  >
                    {ex}
                  </button>
                ))}
              </div>
            )}
          </div>
        ) : (
          <ol className="space-y-4" aria-label="Conversation">
            {chat.map((t, i) => (
              <Turn key={t.id} turn={t} last={i === chat.length - 1} />
            ))}
          </ol>
        )}
        <div ref={end} />
      </div>
      <form onSubmit={submit} className="border-t border-slate-200 p-2.5">
        <label className="sr-only" htmlFor="copilot-chat-input">
          Ask the copilot
        </label>
        <textarea
          id="copilot-chat-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) submit(e);
          }}
          rows={2}
          maxLength={5000}
          placeholder={empty ? 'Describe a pipeline…' : 'e.g. Add a de-identification step before the FHIR write'}
          className={cn(
            'block w-full resize-none rounded-md border border-slate-300 px-2.5 py-1.5 text-[13px] text-slate-900 shadow-sm',
            'placeholder:text-slate-400 focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
          )}
        />
        {empty ? (
          <div className="mt-1.5">
            <CopilotModelPicker />
          </div>
        ) : null}
        <div className="mt-1.5 flex items-center justify-between gap-2">
          <p className="text-[11px] text-slate-400">Enter sends · Shift+Enter for a new line</p>
          <Button type="submit" size="sm" icon={<Send className="size-3.5" aria-hidden />} loading={pending} disabled={text.trim().length < 3}>
            Send
          </Button>
        </div>
      </form>
    </section>
  );
}
