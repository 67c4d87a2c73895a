'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { api } from '@/trpc/react';
import type { AssignedTool } from './types';

const CONTROL = [
  'h-8 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 text-sm',
  'shadow-sm focus:border-teal-600 focus:outline-none aria-invalid:border-amber-500',
].join(' ');

/** The settings a built-in tool's config_schema requires (fhir_search: a connector; run_pipeline: a pipeline). */
function requiredFields(tool: AssignedTool): { key: string; description: string }[] {
  const schema = tool.config_schema as { required?: string[]; properties?: Record<string, { description?: string }> };
  return (schema.required ?? []).map((key) => ({ key, description: schema.properties?.[key]?.description ?? key }));
}

function Options({ field }: { field: string }) {
  const connectors = api.connectors.list.useQuery({ limit: 100, offset: 0 }, { enabled: field === 'connector' });
  const pipelines = api.pipelines.list.useQuery({ limit: 100, offset: 0 }, { enabled: field === 'pipeline_id' });
  if (field === 'connector') {
    return (connectors.data?.connectors ?? []).map((c) => (
      <option key={c.id} value={c.name}>
        {c.name} ({c.type})
      </option>
    ));
  }
  return (pipelines.data?.pipelines ?? []).map((p) => (
    <option key={p.id} value={p.id}>
      {p.name}
      {p.status === 'deployed' ? '' : ' (not deployed)'}
    </option>
  ));
}

/** A small form for the settings a tool needs on this agent; nothing when it needs none. */
export function ToolSettings({ tool, pending, onSave }: { tool: AssignedTool; pending: boolean; onSave: (config: Record<string, unknown>) => void }) {
  const fields = requiredFields(tool);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.key, String(tool.config[f.key] ?? '')])));
  if (fields.length === 0) return null;
  const changed = fields.some((f) => (values[f.key] ?? '') !== String(tool.config[f.key] ?? ''));
  const missing = fields.some((f) => !tool.config[f.key]);
  return (
    <form
      className="space-y-1.5 rounded-md bg-slate-50 px-2.5 py-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ ...tool.config, ...values });
      }}
    >
      {fields.map((f) => {
        const listed = f.key === 'connector' || f.key === 'pipeline_id';
        const common = {
          'aria-label': `${tool.name} ${f.key}`,
          className: CONTROL,
          value: values[f.key] ?? '',
          'aria-invalid': !tool.config[f.key] || undefined,
        };
        return (
          <label key={f.key} className="flex items-center gap-2 text-xs text-slate-600">
            <span className="w-24 shrink-0 font-mono">{f.key}</span>
            {listed ? (
              <select {...common} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}>
                <option value="">Choose…</option>
                <Options field={f.key} />
              </select>
            ) : (
              <input {...common} placeholder={f.description} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })} />
            )}
          </label>
        );
      })}
      <div className="flex items-center justify-between gap-2">
        <p className={missing ? 'text-xs text-amber-700' : 'text-xs text-slate-500'}>
          {missing ? 'Required before the agent can be deployed.' : fields.map((f) => f.description).join('; ')}
        </p>
        <Button type="submit" size="sm" variant="secondary" disabled={!changed || fields.some((f) => !values[f.key])} loading={pending}>
          Save setting
        </Button>
      </div>
    </form>
  );
}
