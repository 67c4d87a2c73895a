'use client';

import { AlertCircle, AlertTriangle, Check, CheckCircle2, ChevronRight, Sparkles, Wand2, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { copilotFixFor } from '@/shared/copilot-fixes';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { CopilotReport } from './store/copilot';
import { useEditor } from './store-provider';

type Finding = CopilotReport['errors'][number];

/** One finding of a report: the node it is about, and what is wrong; with the copilot's Fix where it has one. */
export function FindingRow({ f, error, onClick, onFix }: { f: Finding; error: boolean; onClick?: () => void; onFix?: () => void }) {
  const Icon = error ? AlertCircle : AlertTriangle;
  const body = (
    <>
      <Icon className={cn('mt-px size-3.5 shrink-0', error ? 'text-red-600' : 'text-amber-500')} aria-hidden />
      <span className="min-w-0">
        {f.node_id ? <span className="mr-1 font-mono font-semibold text-slate-800">{f.node_id}</span> : null}
        <span className="text-slate-600">{f.message}</span>
        <span className="ml-1 font-mono text-[10px] text-slate-400">{f.code}</span>
      </span>
    </>
  );
  const row = onClick ? (
    <button type="button" onClick={onClick} className="flex min-w-0 flex-1 items-start gap-2 rounded-md px-2.5 py-2 text-left text-xs hover:bg-slate-50">
      {body}
    </button>
  ) : (
    <div className="flex min-w-0 flex-1 items-start gap-2 px-2.5 py-1.5 text-xs">{body}</div>
  );
  if (!onFix) return row;
  return (
    <div className="flex items-start gap-1" data-testid="finding">
      {row}
      <FixButton onFix={onFix} label={fixLabel(f)} />
    </div>
  );
}

/** The Fix button's name: the change it asks for. */
export const fixLabel = (f: Finding) => `Fix: ${copilotFixFor(f)?.title ?? f.message}`;

/** Asks the copilot for the change that fixes a finding. */
export function FixButton({ onFix, label }: { onFix: () => void; label: string }) {
  return (
    <button
      type="button"
      onClick={onFix}
      aria-label={label}
      title="Ask the copilot for the change that fixes it: previewed on the canvas for you to accept"
      className={cn(
        'mt-1 mr-1 inline-flex shrink-0 items-center gap-1 rounded-md border border-violet-200 bg-violet-50 px-1.5 py-0.5',
        'text-[11px] font-medium text-violet-800 hover:border-violet-300 hover:bg-violet-100',
      )}
    >
      <Wand2 className="size-3" aria-hidden />
      Fix
    </button>
  );
}

/**
 * The copilot's proposal, drawn dashed on the canvas, not added yet: what it checked (the validator's verdict, errors
 * first), what it could not fill (a checklist), how it reasoned, and Accept / Discard.
 */
export function CopilotPreview() {
  const { preview, acceptPreview, discardPreview } = useEditor((s) => ({
    preview: s.preview,
    acceptPreview: s.acceptPreview,
    discardPreview: s.discardPreview,
  }));
  const [done, setDone] = useState<Set<number>>(new Set());
  if (!preview) return null;
  const { result, change } = preview;
  const { validation, unresolved, reasoning, dry_run } = result;
  const valid = validation.valid;
  const warnings = validation.warnings.length;
  const changedIds = change ? Object.keys(change.changed) : [];

  function accept() {
    const ids = acceptPreview();
    toast.success(
      change
        ? 'Change made: save to keep it (Ctrl+Z undoes it).'
        : `Added ${ids.length} node${ids.length === 1 ? '' : 's'}: save to keep them (Ctrl+Z undoes it).`,
    );
  }

  return (
    <section aria-label="Copilot proposal" className="flex h-full flex-col border-t-2 border-violet-500 bg-white">
      <header className="flex items-start gap-2 border-b border-slate-100 px-4 py-3">
        <Sparkles className="mt-0.5 size-4 shrink-0 text-violet-600" aria-hidden />
        <div className="min-w-0 flex-1">
          <p className="text-[11px] font-semibold tracking-wide text-violet-700 uppercase">{change ? 'Proposed change' : 'Proposed pipeline'}</p>
          <h2 className="truncate text-sm font-semibold text-slate-900" title={result.pipeline.name}>
            {result.pipeline.name}
          </h2>
          <p className="text-xs text-slate-500">
            {change
              ? `${preview.nodes.length} added, ${changedIds.length} changed, ${change.removedNodes.length} removed, ` +
                `${change.rewired.length} rewired · drawn on the canvas, not made yet`
              : `${result.pipeline.nodes.length} nodes, ${result.pipeline.connections.length} connections · drawn dashed on the canvas, not added yet`}
          </p>
          {result.planner === 'llm' && result.model ? (
            <p className="text-xs text-slate-500" data-testid="proposal-planner">
              Designed by {result.model}
              {result.attempts && result.attempts > 1 ? ` · corrected after the validator's findings (${result.attempts} answers)` : ''}
            </p>
          ) : null}
        </div>
      </header>
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto px-4 py-3">
        <div
          data-testid="proposal-validation"
          className={cn(
            'rounded-md border px-3 py-2 text-sm',
            !valid
              ? 'border-red-300 bg-red-50 text-red-800'
              : validation.warnings.length
                ? 'border-amber-200 bg-amber-50 text-amber-900'
                : 'border-emerald-200 bg-emerald-50 text-emerald-800',
          )}
          role={valid ? 'status' : 'alert'}
        >
          <p className="flex items-center gap-1.5 font-medium">
            {valid ? <CheckCircle2 className="size-4" aria-hidden /> : <AlertCircle className="size-4" aria-hidden />}
            {valid
              ? `The validator found it valid${warnings ? `, with ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}`
              : `Not valid: ${validation.errors.length} error${validation.errors.length === 1 ? '' : 's'} the copilot could not repair`}
          </p>
          {!valid ? <p className="mt-0.5 text-xs">It would not run as it is. Fix these after accepting, or describe it differently.</p> : null}
        </div>
        {validation.errors.length + validation.warnings.length ? (
          <div className="-mx-2.5">
            {validation.errors.map((f, i) => (
              <FindingRow key={`e${i}`} f={f} error />
            ))}
            {validation.warnings.map((f, i) => (
              <FindingRow key={`w${i}`} f={f} error={false} />
            ))}
          </div>
        ) : null}
        {change ? (
          <ul aria-label="Proposed nodes" className="space-y-0.5 text-xs">
            {preview.nodes.map((n) => (
              <ChangeLine key={n.id} mark="added" id={n.id.slice(n.id.indexOf(':') + 1)} type={n.data.nodeType} />
            ))}
            {changedIds.map((id) => (
              <ChangeLine key={id} mark="changed" id={id} type={change.changed[id]!.nodeType} />
            ))}
            {change.removedNodes.map((id) => (
              <ChangeLine key={id} mark="removed" id={id} />
            ))}
            {change.rewired.map((id) => (
              <ChangeLine key={id} mark="rewired" id={id} />
            ))}
          </ul>
        ) : (
          <ol aria-label="Proposed nodes" className="space-y-0.5 text-xs">
            {result.pipeline.nodes.map((n) => (
              <li key={n.id} className="flex items-baseline gap-1.5">
                <span className="font-mono font-semibold text-slate-800">{n.id}</span>
                <span className="truncate font-mono text-[11px] text-slate-500">{n.type}</span>
              </li>
            ))}
          </ol>
        )}
        {dry_run ? (
          <p className={cn('text-xs', dry_run.status === 'completed' ? 'text-emerald-700' : 'text-red-700')}>
            Dry run on the sample: {dry_run.status}
            {dry_run.error ? ` at ${dry_run.error.node_id ?? 'the pipeline'}: ${dry_run.error.message}` : ''}
          </p>
        ) : null}
        {unresolved.length ? (
          <fieldset className="space-y-1.5">
            <legend className="text-xs font-semibold text-slate-800">To finish ({unresolved.length - done.size} left)</legend>
            <p className="text-xs text-slate-500">The copilot could not fill these: complete them in the nodes’ settings after accepting.</p>
            {unresolved.map((u, i) => (
              <label key={i} className="flex items-start gap-2 text-xs text-slate-700">
                <input
                  type="checkbox"
                  className="mt-0.5 size-3.5 accent-teal-700"
                  checked={done.has(i)}
                  onChange={(e) => {
                    const next = new Set(done);
                    if (e.target.checked) next.add(i);
                    else next.delete(i);
                    setDone(next);
                  }}
                />
                <span className={cn(done.has(i) && 'text-slate-400 line-through')}>{u}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
        <details className="group">
          <summary className="flex cursor-pointer items-center gap-1 text-xs font-semibold text-slate-800 select-none">
            <ChevronRight className="size-3.5 transition-transform group-open:rotate-90" aria-hidden />
            {change ? 'What the copilot changed' : 'How the copilot reasoned'} ({reasoning.length} step{reasoning.length === 1 ? '' : 's'})
          </summary>
          <ol className="mt-1.5 list-decimal space-y-1 pl-5 text-xs text-slate-600">
            {reasoning.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ol>
        </details>
      </div>
      <footer className="flex items-center justify-end gap-2 border-t border-slate-100 px-4 py-3">
        <Button variant="secondary" size="sm" icon={<X className="size-3.5" aria-hidden />} onClick={discardPreview}>
          Discard
        </Button>
        <Button size="sm" variant={valid ? 'primary' : 'danger'} icon={<Check className="size-3.5" aria-hidden />} onClick={accept}>
          {valid ? 'Accept' : 'Accept with errors'}
        </Button>
      </footer>
    </section>
  );
}

const MARK = {
  added: 'bg-violet-100 text-violet-800',
  changed: 'bg-amber-100 text-amber-800',
  removed: 'bg-red-100 text-red-700',
  rewired: 'bg-sky-100 text-sky-800',
} as const;

/** One node a proposed change adds, changes, removes or rewires. */
function ChangeLine({ mark, id, type }: { mark: keyof typeof MARK; id: string; type?: string }) {
  return (
    <li className="flex items-baseline gap-1.5">
      <span className={cn('rounded px-1 text-[10px] font-semibold uppercase', MARK[mark])}>{mark}</span>
      <span className={cn('font-mono font-semibold text-slate-800', mark === 'removed' && 'line-through')}>{id}</span>
      {type ? <span className="truncate font-mono text-[11px] text-slate-500">{type}</span> : null}
    </li>
  );
}
