'use client';

import { useId } from 'react';
import { api } from '@/trpc/react';
import { useEditor } from './store-provider';

/**
 * What the copilot designs new pipelines with: the server's default (COPILOT_MODEL) or a language model configured
 * on this server (the LLM planner). With no model configured there is nothing to choose: it says so in a line.
 */
export function CopilotModelPicker() {
  const id = useId();
  const { model, setModel } = useEditor((s) => ({ model: s.copilotModel, setModel: s.setCopilotModel }));
  const health = api.copilot.health.useQuery({}, { staleTime: 60_000 });
  const models = api.models.list.useQuery({}, { staleTime: 60_000 });
  const llms = (models.data?.models ?? []).filter((m) => m.available && m.id !== 'clinflow/offline');
  if (!health.data) return null;
  const fallback = health.data.default_model === 'clinflow/offline' ? 'the offline planner (rule-based)' : health.data.default_model;
  if (!llms.length) {
    return (
      <p className="text-[11px] text-slate-400">
        Designs with the offline planner (rule-based). An LLM planner needs a language model configured on the server.
      </p>
    );
  }
  return (
    <div className="flex items-center gap-1.5 text-[11px] text-slate-500">
      <label htmlFor={id}>Designs with</label>
      <select
        id={id}
        value={model ?? ''}
        onChange={(e) => setModel(e.target.value || null)}
        className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-1.5 py-0.5 text-[11px] text-slate-800 focus:border-teal-600 focus:outline-none"
      >
        <option value="">Default: {fallback}</option>
        <option value="clinflow/offline">Offline planner (rule-based)</option>
        {llms.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
    </div>
  );
}
