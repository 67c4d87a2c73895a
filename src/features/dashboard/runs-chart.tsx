'use client';

import type { RouterOutputs } from '@/trpc/react';

type Day = RouterOutputs['executions']['dashboard']['days'][number];

const HEIGHT = 160;
const SERIES = [
  { key: 'completed', label: 'Completed', color: '#10b981' },
  { key: 'failed', label: 'Failed', color: '#ef4444' },
  { key: 'other', label: 'Queued, running or cancelled', color: '#94a3b8' },
] as const;

function dayLabel(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/** Runs per day as stacked bars (completed, failed, the rest), with the exact figures in each bar's tooltip and a table for screen readers. */
export function RunsChart({ days }: { days: Day[] }) {
  const max = Math.max(1, ...days.map((d) => d.completed + d.failed + d.other));
  const step = Math.max(1, Math.ceil(days.length / 10));
  return (
    <figure className="space-y-3">
      <div className="flex h-44 items-end gap-1 border-b border-slate-200 pb-px" aria-hidden>
        {days.map((d) => {
          const total = d.completed + d.failed + d.other;
          return (
            <div
              key={d.day}
              className="group relative flex h-full min-w-0 flex-1 flex-col justify-end"
              title={`${dayLabel(d.day)}: ${d.completed} completed, ${d.failed} failed, ${d.other} other`}
            >
              {SERIES.map((s) =>
                d[s.key] > 0 ? (
                  <div key={s.key} style={{ height: `${(d[s.key] / max) * HEIGHT}px`, background: s.color }} className="w-full first:rounded-t-sm" />
                ) : null,
              )}
              {total > 0 ? <span className="absolute -top-5 left-1/2 hidden -translate-x-1/2 text-xs text-slate-600 group-hover:block">{total}</span> : null}
            </div>
          );
        })}
      </div>
      <div className="flex gap-1 text-[11px] text-slate-500" aria-hidden>
        {days.map((d, i) => (
          <span key={d.day} className="min-w-0 flex-1 truncate text-center">
            {i % step === 0 ? dayLabel(d.day) : ''}
          </span>
        ))}
      </div>
      <figcaption className="flex flex-wrap gap-4 text-xs text-slate-600">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5">
            <span className="size-2.5 rounded-sm" style={{ background: s.color }} aria-hidden />
            {s.label}
          </span>
        ))}
      </figcaption>
      <table className="sr-only">
        <caption>Runs per day</caption>
        <thead>
          <tr>
            <th>Day</th>
            {SERIES.map((s) => (
              <th key={s.key}>{s.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              {SERIES.map((s) => (
                <td key={s.key}>{d[s.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
