'use client';

import { Brain, Loader2, Wrench } from 'lucide-react';
import { JsonView } from '@/components/json-view';
import type { Step } from '../types';

/** A thought: muted, folded to its first line until opened. */
function Thought({ content }: { content: string }) {
  return (
    <details className="group rounded-md text-xs text-slate-500" data-testid="step-thinking">
      <summary className="flex cursor-pointer list-none items-start gap-1.5 select-none hover:text-slate-700">
        <Brain className="mt-px size-3.5 shrink-0" aria-hidden />
        <span className="min-w-0 truncate italic group-open:whitespace-normal">
          <span className="sr-only">Thinking: </span>
          {content}
        </span>
      </summary>
    </details>
  );
}

function ToolCall({ step }: { step: Extract<Step, { type: 'tool_call' }> }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white text-xs" data-testid="step-tool-call">
      <div className="flex items-center gap-1.5 border-b border-slate-100 px-2.5 py-1.5">
        <Wrench className="size-3.5 text-teal-700" aria-hidden />
        <span className="text-slate-500">Tool call</span>
        <code className="font-semibold text-slate-900">{step.tool}</code>
        {step.pending ? (
          <span className="ml-auto inline-flex items-center gap-1 text-slate-500">
            <Loader2 className="size-3 animate-spin" aria-hidden /> running…
          </span>
        ) : null}
      </div>
      <div className="space-y-1.5 px-2.5 py-2">
        <details>
          <summary className="cursor-pointer text-slate-500 select-none hover:text-slate-800">Parameters</summary>
          <JsonView value={step.params} label={`${step.tool} parameters`} className="mt-1 max-h-40" />
        </details>
        {step.pending ? null : (
          <details data-testid="tool-result">
            <summary className="cursor-pointer text-slate-500 select-none hover:text-slate-800">Result</summary>
            <JsonView value={step.result} label={`${step.tool} result`} className="mt-1 max-h-64" />
          </details>
        )}
      </div>
    </div>
  );
}

/** The steps an answer took, in order: thoughts (muted) and tool calls with their results. */
export function ReasoningSteps({ steps }: { steps: Step[] }) {
  if (steps.length === 0) return null;
  return (
    <div className="space-y-1.5" aria-label="Reasoning steps">
      {steps.map((s, i) => (s.type === 'thinking' ? <Thought key={i} content={s.content} /> : <ToolCall key={i} step={s} />))}
    </div>
  );
}
