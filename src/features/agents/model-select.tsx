'use client';

import { useId } from 'react';
import { api } from '@/trpc/react';

const SELECT = [
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900',
  'shadow-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
].join(' ');
const KEY: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/** Why a model cannot be picked: its provider is not configured on this server. */
export function unavailableReason(provider: string): string {
  return KEY[provider] ? `needs ${KEY[provider]} on the server` : 'its endpoint is not configured on the server';
}

/** The language models; those whose provider is not configured are listed, disabled, with the reason. */
export function ModelSelect({ value, onChange }: { value: string; onChange: (model: string) => void }) {
  const id = useId();
  const models = api.models.list.useQuery({}, { staleTime: 60_000 });
  const list = models.data?.models ?? [];
  const current = list.find((m) => m.id === value);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Model
      </label>
      <select id={id} className={SELECT} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-hint`}>
        {current ? null : <option value={value}>{value}</option>}
        {list.map((m) => (
          <option key={m.id} value={m.id} disabled={!m.available}>
            {m.name}
            {m.available ? '' : ` — unavailable: ${unavailableReason(m.provider)}`}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {models.isError
          ? 'Could not load the model list.'
          : current && !current.available
            ? `This model is unavailable: ${unavailableReason(current.provider)}.`
            : value === 'clinflow/offline'
              ? 'clinflow/offline: a rule-based model that always works, without an LLM.'
              : value}
      </p>
    </div>
  );
}
