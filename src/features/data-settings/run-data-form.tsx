'use client';

import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { TextField } from '@/components/ui/field';
import type { RouterOutputs } from '@/trpc/react';
import type { DataPolicy, DataSettingsOverride } from '@/shared/data-settings';

export type DataSettingsView = RouterOutputs['organization']['dataSettings'];

/** The three policies in one plain line each (what a person decides between). */
export const POLICY_TEXT: Record<DataPolicy, { label: string; line: string }> = {
  full: { label: 'Everything', line: "Every run keeps each node's inputs and outputs: the most to look at, the most patient data stored." },
  errors: {
    label: 'Only failed runs',
    line: 'Runs that fail keep their data, to see what went wrong and retry; successful runs keep only status and timings.',
  },
  metadata: { label: 'Status only', line: 'No run keeps any data, not even failed ones: only status, timings and errors. Failed runs cannot be retried.' },
};

type NumberKey = 'payload_days' | 'execution_days' | 'max_executions';
const NUMBERS: { key: NumberKey; label: string; unit: string; none: string }[] = [
  { key: 'payload_days', label: 'Keep run data for (days)', unit: 'days', none: 'as long as the run' },
  { key: 'execution_days', label: 'Keep runs for (days)', unit: 'days', none: 'forever' },
  { key: 'max_executions', label: 'Most runs kept', unit: 'runs', none: 'no limit' },
];

const show = (v: number | null, unit: string, none: string) => (v === null ? none : `${v.toLocaleString()} ${unit}`);

/**
 * "Run data": what a pipeline's (or, as defaults, an organization's) runs keep and for how long. Each value left
 * empty inherits, and says what it inherits. Test runs and the step debugger always keep everything.
 */
export function RunDataForm({
  view,
  scope,
  saving,
  error,
  onSave,
}: {
  view: DataSettingsView;
  scope: 'pipeline' | 'organization';
  saving: boolean;
  error: string | null;
  onSave: (change: DataSettingsOverride) => void;
}) {
  const from = scope === 'pipeline' ? 'organization default' : 'built-in default';
  const [policy, setPolicy] = useState<DataPolicy | ''>(view.overrides.policy ?? '');
  const [numbers, setNumbers] = useState<Record<NumberKey, string>>(() => ({
    payload_days: view.overrides.payload_days?.toString() ?? '',
    execution_days: view.overrides.execution_days?.toString() ?? '',
    max_executions: view.overrides.max_executions?.toString() ?? '',
  }));
  const inherited = view.defaults;
  const effective = policy || inherited.policy;

  function save() {
    const change: DataSettingsOverride = { policy: policy || null };
    for (const { key } of NUMBERS) change[key] = numbers[key].trim() === '' ? null : Number(numbers[key]);
    onSave(change);
  }

  return (
    <form
      className="space-y-4"
      aria-label="Run data"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">What runs keep</legend>
        <PolicyChoice value="" checked={policy === ''} onPick={setPolicy} label={`Use the ${from}`} line={`${POLICY_TEXT[inherited.policy].label}.`} />
        {(Object.keys(POLICY_TEXT) as DataPolicy[]).map((p) => (
          <PolicyChoice key={p} value={p} checked={policy === p} onPick={setPolicy} label={POLICY_TEXT[p].label} line={POLICY_TEXT[p].line} />
        ))}
        <p className="text-xs text-slate-500">Test runs and the step debugger always keep everything.</p>
      </fieldset>
      {NUMBERS.map(({ key, label, unit, none }) => (
        <TextField
          key={key}
          label={label}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={numbers[key]}
          placeholder={show(inherited[key], unit, none)}
          onChange={(e) => setNumbers((n) => ({ ...n, [key]: e.target.value }))}
          hint={numbers[key].trim() === '' ? `Empty: the ${from}, ${show(inherited[key], unit, none)}.` : `The ${from} is ${show(inherited[key], unit, none)}.`}
        />
      ))}
      {effective !== 'full' ? (
        <p className="text-xs text-slate-500" data-testid="run-data-summary">
          {effective === 'errors' ? 'Successful runs will show status and timings only.' : 'Runs will show status and timings only, failed runs included.'}
        </p>
      ) : null}
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" size="sm" loading={saving}>
        Save run data settings
      </Button>
    </form>
  );
}

interface ChoiceProps {
  value: DataPolicy | '';
  checked: boolean;
  onPick: (v: DataPolicy | '') => void;
  label: string;
  line: string;
}

function PolicyChoice({ value, checked, onPick, label, line }: ChoiceProps) {
  return (
    <label
      className={cn(
        'flex cursor-pointer gap-2.5 rounded-md border px-3 py-2',
        checked ? 'border-teal-600 bg-teal-50/50' : 'border-slate-200 hover:bg-slate-50',
      )}
    >
      <input type="radio" name="policy" className="mt-1 accent-teal-700" value={value} checked={checked} onChange={() => onPick(value)} />
      <span className="min-w-0">
        <span className="block text-sm font-medium text-slate-900">{label}</span>
        <span className="block text-xs text-slate-600">{line}</span>
      </span>
    </label>
  );
}
