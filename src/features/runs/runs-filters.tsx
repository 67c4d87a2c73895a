'use client';

import { Search, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { executionStatusLabel } from './execution-look';
import { EXECUTION_STATUSES, type ExecutionStatus } from './types';

const SELECT = [
  'h-9 rounded-md border border-slate-300 bg-white pr-8 pl-3 text-sm text-slate-800',
  'shadow-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
].join(' ');

export interface RunsFilterValues {
  status: ExecutionStatus | null;
  pipeline: string | null;
  /** Days (YYYY-MM-DD, the user's time zone): runs created from the start of `from` to the end of `to` */
  from: string | null;
  to: string | null;
  /** Text to find in inputs, outputs and errors */
  q: string | null;
}

interface Props {
  values: RunsFilterValues;
  pipelines: Array<{ id: string; name: string }>;
  onChange: (next: Partial<RunsFilterValues>) => void;
}

/** Status, pipeline, date range and text search; their values live in the URL (?status=&pipeline=&from=&to=&q=). */
export function RunsFilters({ values, pipelines, onChange }: Props) {
  const { status, pipeline: pipelineId, from, to, q } = values;
  const [text, setText] = useState(q ?? '');
  useEffect(() => setText(q ?? ''), [q]);
  const unknownPipeline = pipelineId && !pipelines.some((p) => p.id === pipelineId);
  return (
    <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 px-4 py-3">
      <label className="space-y-1">
        <span className="block text-xs font-medium text-slate-600">Status</span>
        <select
          aria-label="Filter by status"
          className={SELECT}
          value={status ?? ''}
          onChange={(e) => onChange({ status: (e.target.value || null) as ExecutionStatus | null })}
        >
          <option value="">All statuses</option>
          {EXECUTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {executionStatusLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <label className="min-w-0 space-y-1">
        <span className="block text-xs font-medium text-slate-600">Pipeline</span>
        <select
          aria-label="Filter by pipeline"
          className={`${SELECT} max-w-xs`}
          value={pipelineId ?? ''}
          onChange={(e) => onChange({ pipeline: e.target.value || null })}
        >
          <option value="">All pipelines</option>
          {unknownPipeline ? <option value={pipelineId}>{pipelineId.slice(0, 8)} (deleted or not listed)</option> : null}
          {pipelines.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="space-y-1">
        <span className="block text-xs font-medium text-slate-600">From</span>
        <input
          type="date"
          aria-label="Runs from"
          className={`${SELECT} pr-3`}
          value={from ?? ''}
          max={to ?? undefined}
          onChange={(e) => onChange({ from: e.target.value || null })}
        />
      </label>
      <label className="space-y-1">
        <span className="block text-xs font-medium text-slate-600">To</span>
        <input
          type="date"
          aria-label="Runs to"
          className={`${SELECT} pr-3`}
          value={to ?? ''}
          min={from ?? undefined}
          onChange={(e) => onChange({ to: e.target.value || null })}
        />
      </label>
      <form
        role="search"
        className="min-w-56 flex-1 space-y-1"
        onSubmit={(e) => {
          e.preventDefault();
          onChange({ q: text.trim() || null });
        }}
      >
        <label htmlFor="runs-search" className="block text-xs font-medium text-slate-600">
          Find in inputs and outputs
        </label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-slate-400" aria-hidden />
          <input
            id="runs-search"
            type="search"
            placeholder="An MRN, a control id, a name… then Enter"
            className={`${SELECT} w-full pl-8`}
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => text.trim() !== (q ?? '') && onChange({ q: text.trim() || null })}
          />
        </div>
      </form>
      {status || pipelineId || from || to || q ? (
        <Button
          variant="ghost"
          icon={<X className="size-4" aria-hidden />}
          onClick={() => onChange({ status: null, pipeline: null, from: null, to: null, q: null })}
        >
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
