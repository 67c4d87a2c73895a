'use client';

import { useId } from 'react';
import type { PipelineNodeData } from './types';
import { cn } from '@/components/ui/cn';

type Settings = NonNullable<PipelineNodeData['settings']>;

function NumberInput(props: {
  label: string;
  hint: string;
  value: number | undefined;
  placeholder: number;
  min: number;
  max: number;
  onChange: (v: number | undefined) => void;
}) {
  const id = useId();
  const { label, hint, value, placeholder, min, max, onChange } = props;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-[13px] font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value ?? ''}
        placeholder={String(placeholder)}
        onChange={(e) => {
          const raw = e.target.value;
          if (raw === '') return onChange(undefined);
          const n = Math.round(Number(raw));
          if (Number.isFinite(n)) onChange(n);
        }}
        className={cn(
          'block w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-[13px] tabular-nums shadow-sm',
          'placeholder:text-slate-400 focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
        )}
      />
      <p className="text-[11px] text-slate-500">{hint}</p>
    </div>
  );
}

/** How the engine runs the node: time limit and retries (the definition's `settings`). */
export function NodeSettingsForm({ value, onChange }: { value: Settings | undefined; onChange: (s: Settings | undefined, field: string) => void }) {
  const s = value ?? {};
  function emit(next: Settings, field: string) {
    const clean: Settings = {};
    if (next.timeout_ms !== undefined) clean.timeout_ms = next.timeout_ms;
    if (next.retry) clean.retry = next.retry;
    onChange(Object.keys(clean).length ? clean : undefined, field);
  }
  function setRetry(patch: Partial<NonNullable<Settings['retry']>>, field: string) {
    const merged = { max_attempts: s.retry?.max_attempts, backoff_ms: s.retry?.backoff_ms, ...patch };
    const retry =
      merged.max_attempts === undefined && merged.backoff_ms === undefined
        ? undefined
        : { max_attempts: merged.max_attempts ?? 1, backoff_ms: merged.backoff_ms ?? 500 };
    emit({ ...s, retry }, field);
  }
  return (
    <div className="grid grid-cols-1 gap-3">
      <NumberInput
        label="Timeout (ms)"
        hint="Time limit of one attempt, 10 to 600 000."
        value={s.timeout_ms}
        placeholder={60000}
        min={10}
        max={600000}
        onChange={(v) => emit({ ...s, timeout_ms: v }, 'timeout')}
      />
      <div className="grid grid-cols-2 gap-3">
        <NumberInput
          label="Max attempts"
          hint="1 = no retry."
          value={s.retry?.max_attempts}
          placeholder={1}
          min={1}
          max={10}
          onChange={(v) => setRetry({ max_attempts: v }, 'attempts')}
        />
        <NumberInput
          label="Backoff (ms)"
          hint="Doubles after each try."
          value={s.retry?.backoff_ms}
          placeholder={500}
          min={0}
          max={60000}
          onChange={(v) => setRetry({ backoff_ms: v }, 'backoff')}
        />
      </div>
    </div>
  );
}
