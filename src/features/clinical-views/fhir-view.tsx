'use client';

import { useState } from 'react';
import { JsonView } from '@/components/json-view';
import { cn } from '@/components/ui/cn';
import { resourceSummary } from './fhir-summary';
import { ViewToolbar } from './view-toolbar';

interface Item {
  resourceType: string;
  id?: string;
  fullUrl?: string;
  resource: unknown;
}

function itemsOf(value: Record<string, unknown>): Item[] {
  if (value.resourceType !== 'Bundle') return [{ resourceType: String(value.resourceType), id: value.id as string | undefined, resource: value }];
  return (Array.isArray(value.entry) ? value.entry : []).map((e: { fullUrl?: string; resource?: Record<string, unknown> }) => ({
    resourceType: String(e?.resource?.resourceType ?? '—'),
    id: e?.resource?.id as string | undefined,
    fullUrl: e?.fullUrl,
    resource: e?.resource ?? e,
  }));
}

/** A FHIR bundle as its resources (type, id, one line), with the JSON of the picked one beside; a single resource likewise. */
export function FhirView({ value, label }: { value: Record<string, unknown>; label: string }) {
  const items = itemsOf(value);
  const [picked, setPicked] = useState(0);
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const rows = items.map((item, i) => ({ item, i, summary: resourceSummary(item.resource) }));
  const shown = q ? rows.filter((r) => `${r.item.resourceType} ${r.item.id ?? ''} ${r.summary}`.toLowerCase().includes(q)) : rows;
  const current = items[picked] ?? items[0];
  const counts = new Map<string, number>();
  for (const it of items) counts.set(it.resourceType, (counts.get(it.resourceType) ?? 0) + 1);
  const isBundle = value.resourceType === 'Bundle';
  return (
    <div role="region" aria-label={label} data-testid="fhir-view" className="@container space-y-2">
      {isBundle ? (
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs">
          <span className="font-semibold text-slate-900">Bundle</span>
          {value.type ? <span className="font-mono text-slate-500">{String(value.type)}</span> : null}
          <span className="text-slate-500">
            {items.length} resource{items.length === 1 ? '' : 's'}: {[...counts].map(([t, n]) => `${n} ${t}`).join(', ')}
          </span>
        </div>
      ) : null}
      {items.length > 8 ? <ViewToolbar filter={filter} onFilter={setFilter} placeholder="Filter: Patient, code, name…" /> : null}
      <div className="grid gap-3 @2xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <ul aria-label="Resources" className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-white text-[11px]">
          {items.length === 0 ? <li className="px-2.5 py-2 text-slate-400 italic">The bundle has no entries.</li> : null}
          {shown.map(({ item, i, summary }) => (
            <li key={i}>
              <button
                type="button"
                aria-current={i === picked}
                onClick={() => setPicked(i)}
                className={cn('block w-full border-b border-slate-100 px-2.5 py-1 text-left hover:bg-slate-50', i === picked && 'bg-teal-50/80')}
              >
                <span className="flex items-baseline gap-2">
                  <span className="shrink-0 font-semibold text-slate-800">{item.resourceType}</span>
                  {item.id ? <span className="min-w-0 truncate font-mono text-[10px] text-slate-400">{item.id}</span> : null}
                </span>
                <span className="block truncate text-slate-700" title={summary}>
                  {summary || <span className="text-slate-400 italic">no summary</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
        <div className="min-w-0">
          {current ? (
            <>
              <p className="mb-1 truncate text-[11px] text-slate-500">
                <span className="font-semibold text-slate-700">{current.resourceType}</span>
                {current.id ? <span className="font-mono"> / {current.id}</span> : null}
              </p>
              <JsonView value={current.resource} label="Selected resource" className="max-h-96" />
            </>
          ) : null}
        </div>
      </div>
    </div>
  );
}
