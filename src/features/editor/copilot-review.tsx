'use client';

import { Sparkles } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FindingRow } from './copilot-preview';
import { useEditor } from './store-provider';
import type { Finding } from './types';
import { canvasKey } from './use-editor-effects';
import { useCopilot } from './use-copilot';
import { useCopilotFix } from './use-copilot-chat';

const keyOf = (f: Finding) => `${f.node_id ?? ''}|${f.code}|${f.message}`;

/**
 * "Check with copilot", under the validator's problems: the copilot's review of the canvas (patient data to
 * an external LLM, FHIR written unvalidated, writes without retry…), each finding leading to its node, with a
 * Fix where the copilot has a change that answers it (not on a review of an earlier canvas).
 */
export function CopilotReview({ onGo, onFixing }: { onGo: (f: Finding) => void; onFixing?: () => void }) {
  const { check, checking, checkError } = useCopilot();
  const fixOf = useCopilotFix();
  const { review, hasNodes, stale, listed } = useEditor((s) => ({
    review: s.review,
    hasNodes: s.nodes.length > 0,
    stale: s.review !== null && s.review.key !== canvasKey(s),
    // joined to a string: a fresh array per call would never compare equal
    listed: [...s.pipelineFindings.errors, ...s.pipelineFindings.warnings, ...Object.values(s.errors).flat(), ...Object.values(s.warnings).flat()]
      .map(keyOf)
      .join('\n'),
  }));
  // the validator's own findings are listed above: show what the copilot adds
  const known = new Set(listed.split('\n'));
  const findings = review
    ? [...review.report.errors.map((f) => ({ f, error: true })), ...review.report.warnings.map((f) => ({ f, error: false }))].filter(
        ({ f }) => !known.has(keyOf(f)),
      )
    : [];

  return (
    <div className="mt-1 border-t border-slate-100 pt-1.5" aria-label="Copilot review" role="group">
      <div className="flex items-center justify-between gap-2 px-2.5 py-1">
        <p className="inline-flex items-center gap-1.5 text-xs font-semibold text-violet-800">
          <Sparkles className="size-3.5" aria-hidden /> Copilot review
          {stale ? <span className="font-normal text-slate-400">(before your last change)</span> : null}
        </p>
        <Button variant="secondary" size="sm" loading={checking} disabled={!hasNodes} onClick={() => void check()}>
          {review ? 'Check again' : 'Check with copilot'}
        </Button>
      </div>
      {checkError ? (
        <p className="px-2.5 py-1 text-xs text-red-700" role="alert">
          {checkError}
        </p>
      ) : null}
      {review && findings.length === 0 ? <p className="px-2.5 py-1.5 text-xs text-slate-500">The copilot found nothing beyond the problems above.</p> : null}
      {findings.map(({ f, error }, i) => {
        const fix = stale ? undefined : fixOf(f);
        return (
          <FindingRow
            key={i}
            f={f}
            error={error}
            onClick={() => onGo(f)}
            onFix={
              fix &&
              (() => {
                onFixing?.();
                fix();
              })
            }
          />
        );
      })}
    </div>
  );
}
