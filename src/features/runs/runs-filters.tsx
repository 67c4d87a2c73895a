'use client';

import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { executionStatusLabel } from './execution-look';
import { EXECUTION_STATUSES, type ExecutionStatus } from './types';

const SELECT =
  'h-9 rounded-md border border-slate-300 bg-white pr-8 pl-3 text-sm text-slate-800 shadow-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none';

interface Props {
  status: ExecutionStatus | null;
  pipelineId: string | null;
  pipelines: Array<{ id: string; name: string }>;
  onChange: (next: { status?: ExecutionStatus | null; pipeline?: string | null }) => void;
}

/** Status and pipeline filters; their values live in the URL (?status=&pipeline=). */
export function RunsFilters({ status, pipelineId, pipelines, onChange }: Props) {
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
      {status || pipelineId ? (
        <Button variant="ghost" icon={<X className="size-4" aria-hidden />} onClick={() => onChange({ status: null, pipeline: null })}>
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
