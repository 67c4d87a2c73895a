'use client';

import { useReactFlow } from '@xyflow/react';
import { AlertCircle, AlertTriangle, CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { FixButton, fixLabel } from './copilot-preview';
import { CopilotReview } from './copilot-review';
import { useCopilotFix } from './use-copilot-chat';
import { useEditor } from './store-provider';
import type { Finding } from './types';

/** The validator's verdict; opens the list of problems, each leading to its node. */
export function ProblemsButton() {
  const { errors, warnings, pipeline, select } = useEditor((s) => ({
    errors: s.errors,
    warnings: s.warnings,
    pipeline: s.pipelineFindings,
    select: s.select,
  }));
  const flow = useReactFlow();
  const fixOf = useCopilotFix();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const errs: Finding[] = [...pipeline.errors, ...Object.values(errors).flat()];
  const warns: Finding[] = [...pipeline.warnings, ...Object.values(warnings).flat()];

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  function go(f: Finding) {
    setOpen(false);
    if (!f.node_id) return;
    select(f.node_id);
    void flow.fitView({ nodes: [{ id: f.node_id }], duration: 300, maxZoom: 1.2, padding: 0.6 });
  }

  const label = errs.length
    ? `${errs.length} problem${errs.length === 1 ? '' : 's'}`
    : warns.length
      ? `${warns.length} warning${warns.length === 1 ? '' : 's'}`
      : 'Valid';
  return (
    <div className="relative" ref={box}>
      <button
        type="button"
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        data-testid="validation-status"
        className={cn(
          'inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
          errs.length
            ? 'bg-red-50 text-red-700 ring-red-200'
            : warns.length
              ? 'bg-amber-50 text-amber-800 ring-amber-200'
              : 'bg-emerald-50 text-emerald-700 ring-emerald-200',
        )}
      >
        {errs.length ? (
          <AlertCircle className="size-3.5" aria-hidden />
        ) : warns.length ? (
          <AlertTriangle className="size-3.5" aria-hidden />
        ) : (
          <CheckCircle2 className="size-3.5" aria-hidden />
        )}
        {label}
      </button>
      {open ? (
        <div
          role="dialog"
          aria-label="Problems"
          className="absolute top-full left-0 z-30 mt-1.5 max-h-96 w-96 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1.5 shadow-xl"
        >
          {errs.length + warns.length === 0 ? <p className="px-2.5 py-3 text-sm text-slate-500">The validator found nothing wrong.</p> : null}
          {[...errs.map((f) => ({ f, error: true })), ...warns.map((f) => ({ f, error: false }))].map(({ f, error }, i) => {
            const fix = fixOf(f);
            return (
              <div key={i} className="flex items-start gap-1">
                <button
                  type="button"
                  onClick={() => go(f)}
                  className="flex min-w-0 flex-1 items-start gap-2 rounded-md px-2.5 py-2 text-left text-xs hover:bg-slate-50"
                >
                  {error ? (
                    <AlertCircle className="mt-px size-3.5 shrink-0 text-red-600" aria-hidden />
                  ) : (
                    <AlertTriangle className="mt-px size-3.5 shrink-0 text-amber-500" aria-hidden />
                  )}
                  <span className="min-w-0">
                    {f.node_id ? <span className="mr-1 font-mono font-semibold text-slate-800">{f.node_id}</span> : null}
                    <span className="text-slate-600">{f.message}</span>
                  </span>
                </button>
                {fix ? (
                  <FixButton
                    label={fixLabel(f)}
                    onFix={() => {
                      setOpen(false);
                      fix();
                    }}
                  />
                ) : null}
              </div>
            );
          })}
          <CopilotReview onGo={go} onFixing={() => setOpen(false)} />
        </div>
      ) : null}
    </div>
  );
}
