'use client';

import { Activity, AlertTriangle, CheckCircle2, Timer } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { formatDuration } from '@/components/format';
import { api } from '@/trpc/react';

/** Totals over every run (of one pipeline when filtered): count, success rate, average time, top failing node types. */
export function StatsStrip({ pipelineId, live }: { pipelineId?: string; live: boolean }) {
  const stats = api.executions.stats.useQuery({ pipeline_id: pipelineId }, { refetchInterval: live ? 3000 : false });
  const s = stats.data;
  const rate = s?.success_rate;
  const finished = (s?.by_status.completed ?? 0) + (s?.by_status.failed ?? 0);
  const top = s?.error_distribution.slice(0, 3) ?? [];
  const placeholder = stats.isPending ? '…' : '—';
  return (
    <div className="mb-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Execution statistics" role="group">
      <Stat icon={<Activity className="size-4" aria-hidden />} label="Total runs" value={s ? s.total_executions.toLocaleString() : placeholder}>
        {s ? <StatusSplit byStatus={s.by_status} /> : null}
      </Stat>
      <Stat
        icon={<CheckCircle2 className="size-4" aria-hidden />}
        label="Success rate"
        value={rate == null ? placeholder : `${+(rate * 100).toFixed(1)}%`}
        valueClass={rate == null ? undefined : rate >= 0.95 ? 'text-emerald-700' : rate >= 0.8 ? 'text-amber-700' : 'text-red-700'}
      >
        {rate == null ? 'No finished runs yet' : `of ${finished.toLocaleString()} finished run${finished === 1 ? '' : 's'}`}
      </Stat>
      <Stat
        icon={<Timer className="size-4" aria-hidden />}
        label="Average duration"
        value={s?.average_duration_ms == null ? placeholder : formatDuration(s.average_duration_ms)}
      >
        Completed and failed runs
      </Stat>
      <Stat
        icon={<AlertTriangle className="size-4" aria-hidden />}
        label="Failed runs"
        value={s ? (s.by_status.failed ?? 0).toLocaleString() : placeholder}
        valueClass={s?.by_status.failed ? 'text-red-700' : undefined}
      >
        {top.length === 0 ? (
          <span>{s ? 'No node has failed' : ''}</span>
        ) : (
          <ul className="space-y-0.5" aria-label="Top failing node types">
            {top.map((e) => (
              <li
                key={e.node_type}
                className="flex items-center justify-between gap-2 text-xs"
                title={Object.entries(e.codes)
                  .map(([c, n]) => `${c}: ${n}`)
                  .join(', ')}
              >
                <span className="truncate font-mono text-slate-700">{e.node_type}</span>
                <span className="shrink-0 rounded-full bg-red-50 px-1.5 font-medium text-red-700 tabular-nums">{e.count}</span>
              </li>
            ))}
          </ul>
        )}
      </Stat>
    </div>
  );
}

function Stat({
  icon,
  label,
  value,
  valueClass,
  children,
}: {
  icon: ReactNode;
  label: string;
  value?: string | null;
  valueClass?: string;
  children?: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <p className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="text-slate-400">{icon}</span>
        {label}
      </p>
      {value ? <p className={cn('mt-1 text-2xl font-semibold tracking-tight text-slate-900 tabular-nums', valueClass)}>{value}</p> : null}
      {children ? <div className="mt-0.5 text-xs text-slate-500">{children}</div> : null}
    </div>
  );
}

const SPLIT: Array<[string, string]> = [
  ['completed', 'bg-emerald-500'],
  ['failed', 'bg-red-500'],
  ['running', 'bg-sky-500'],
  ['queued', 'bg-amber-400'],
  ['cancelled', 'bg-slate-300'],
];

/** A thin bar split by status, with the counts on hover. */
function StatusSplit({ byStatus }: { byStatus: Record<string, number> }) {
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  if (total === 0) return <span>No runs yet</span>;
  const parts = SPLIT.filter(([k]) => (byStatus[k] ?? 0) > 0);
  return (
    <div className="mt-1.5">
      <div className="flex h-1.5 overflow-hidden rounded-full bg-slate-100">
        {parts.map(([k, color]) => (
          <div key={k} className={color} style={{ width: `${((byStatus[k] ?? 0) / total) * 100}%` }} title={`${k}: ${byStatus[k]}`} />
        ))}
      </div>
      <p className="mt-1 truncate">{parts.map(([k]) => `${byStatus[k]} ${k}`).join(' · ')}</p>
    </div>
  );
}
