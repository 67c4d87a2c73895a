'use client';

import { Sparkles, X } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopilotModelPicker } from './copilot-model';
import { useEditor } from './store-provider';
import { useCopilot } from './use-copilot';
import { cn } from '@/components/ui/cn';

const EXAMPLES = [
  'Receive ADT messages over MLLP, convert them to FHIR, validate and write them to our FHIR server',
  'Every night at 2am export Patient resources, de-identify them and store them in the warehouse',
  'Take lab results from a webhook and route abnormal values to a review queue',
];

/**
 * "Describe your pipeline": a request in plain words, designed by the copilot into a proposal the canvas
 * previews. Centred on an empty canvas; over a pipeline when opened from the toolbar.
 */
export function CopilotBox({ empty }: { empty: boolean }) {
  const { design, designing, designError } = useCopilot();
  const setDescribing = useEditor((s) => s.setDescribing);
  const [text, setText] = useState('');

  function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    if (text.trim().length >= 3) void design(text.trim());
  }

  return (
    <form
      onSubmit={submit}
      role="region"
      aria-label="Describe your pipeline"
      className="pointer-events-auto w-[min(36rem,calc(100%-2rem))] space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-lg"
    >
      <div className="flex items-start gap-2.5">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-violet-100 text-violet-700">
          <Sparkles className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="text-sm font-semibold text-slate-900">Describe your pipeline</h2>
          <p className="text-xs text-slate-500">
            The copilot picks the nodes, connects them and checks the result with the validator. You review it before anything is added.
          </p>
        </div>
        {empty ? null : (
          <Button type="button" variant="ghost" size="icon" aria-label="Close" onClick={() => setDescribing(false)}>
            <X className="size-4" aria-hidden />
          </Button>
        )}
      </div>
      <label className="sr-only" htmlFor="copilot-description">
        What should the pipeline do?
      </label>
      <textarea
        id="copilot-description"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit(e);
        }}
        rows={3}
        maxLength={5000}
        placeholder="e.g. Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles"
        className={cn(
          'block w-full resize-y rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 shadow-sm',
          'placeholder:text-slate-400 focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
        )}
      />
      <div className="flex flex-wrap gap-1.5" aria-label="Examples">
        {EXAMPLES.map((ex) => (
          <button
            key={ex}
            type="button"
            onClick={() => setText(ex)}
            className={cn(
              'max-w-full truncate rounded-full border border-slate-200 bg-slate-50 px-2.5 py-1 text-left',
              'text-xs text-slate-600 hover:border-violet-300 hover:bg-violet-50 hover:text-violet-800',
            )}
            title={ex}
          >
            {ex}
          </button>
        ))}
      </div>
      <CopilotModelPicker />
      {designError ? <Alert>{designError}</Alert> : null}
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-slate-400">{empty ? 'Or drag a trigger from the palette to build it yourself.' : 'Ctrl+Enter designs it.'}</p>
        <Button type="submit" icon={<Sparkles className="size-4" aria-hidden />} loading={designing} disabled={text.trim().length < 3}>
          Design it
        </Button>
      </div>
    </form>
  );
}
