'use client';

import { Activity, AlertTriangle, Gauge, Timer } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { api } from '@/trpc/react';
import { RunsChart } from './runs-chart';
import { StorageCard } from './storage-card';
import { FailingNowCard } from './failing-now-card';

const RANGES = [7, 14, 30, 90] as const;

function Figure({ icon, label, value, hint }: { icon: ReactNode; label: string; value: string; hint: string }) {
  return (
    <Card className="space-y-1 p-4">
      <p className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-slate-500 uppercase">
        {icon}
        {label}
      </p>
      <p className="text-2xl font-semibold text-slate-900">{value}</p>
      <p className="text-xs text-slate-500">{hint}</p>
    </Card>
  );
}

function Bar({ ratio, tone }: { ratio: number; tone: string }) {
  return (
    <span className="block h-1.5 w-full rounded-full bg-slate-100">
      <span className={`block h-1.5 rounded-full ${tone}`} style={{ width: ratio > 0 ? `${Math.max(2, Math.round(ratio * 100))}%` : 0 }} />
    </span>
  );
}

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n} ms`);
const pct = (r: number) => `${Math.round(r * 100)}%`;

/** /dashboard: runs over time, the pipelines that fail most and the slowest nodes, for the last 7–90 days; the storage runs use. */
export function DashboardPage() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const days = RANGES.find((r) => String(r) === params.get('days')) ?? 14;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const data = api.executions.dashboard.useQuery({ days, time_zone: timeZone }, { refetchInterval: 30_000 });

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={[
          'How your pipelines have run: runs per day, the pipelines that fail most,',
          'and the nodes that take longest. Step-through sessions are left out.',
        ].join(' ')}
        actions={
          <label className="flex items-center gap-2 text-sm text-slate-600">
            Last
            <select
              aria-label="Period"
              className="h-9 rounded-md border border-slate-300 bg-white pr-8 pl-3 text-sm shadow-sm"
              value={days}
              onChange={(e) => router.replace(`${pathname}?days=${e.target.value}`)}
            >
              {RANGES.map((r) => (
                <option key={r} value={r}>
                  {r} days
                </option>
              ))}
            </select>
          </label>
        }
      />
      <QueryState query={data} what="the dashboard">
        {(d) => {
          const totals = d.days.reduce((t, x) => ({ completed: t.completed + x.completed, failed: t.failed + x.failed, other: t.other + x.other }), {
            completed: 0,
            failed: 0,
            other: 0,
          });
          const runs = totals.completed + totals.failed + totals.other;
          const finished = totals.completed + totals.failed;
          const today = d.days.at(-1);
          const slowest = Math.max(1, ...d.slowest_nodes.map((n) => n.p95_ms));
          return (
            <div className="space-y-6">
              <FailingNowCard pipelines={d.failing_now} />
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
                <Figure icon={<Activity className="size-3.5" aria-hidden />} label="Runs" value={runs.toLocaleString()} hint={`in the last ${days} days`} />
                <Figure
                  icon={<AlertTriangle className="size-3.5" aria-hidden />}
                  label="Failure rate"
                  value={finished ? pct(totals.failed / finished) : '—'}
                  hint={`${totals.failed} of ${finished} finished runs failed`}
                />
                <Figure
                  icon={<Gauge className="size-3.5" aria-hidden />}
                  label="Today"
                  value={today ? String(today.completed + today.failed + today.other) : '0'}
                  hint={today ? `${today.failed} failed` : 'no runs yet'}
                />
                <Figure
                  icon={<Timer className="size-3.5" aria-hidden />}
                  label="Slowest node (p95)"
                  value={d.slowest_nodes[0] ? ms(d.slowest_nodes[0].p95_ms) : '—'}
                  hint={d.slowest_nodes[0] ? `node “${d.slowest_nodes[0].node_id}” of ${d.slowest_nodes[0].pipeline_name}` : 'no node has run'}
                />
              </div>
              <Card className="p-5">
                <h2 className="mb-4 text-sm font-semibold text-slate-800">Runs per day</h2>
                {runs === 0 ? (
                  <p className="text-sm text-slate-500">No runs in this period. Run a pipeline from the editor or over the API and it appears here.</p>
                ) : (
                  <RunsChart days={d.days} />
                )}
              </Card>
              <div className="grid gap-6 lg:grid-cols-2">
                <Card className="p-5">
                  <h2 className="mb-3 text-sm font-semibold text-slate-800">Pipelines that fail most</h2>
                  {d.failing_pipelines.length === 0 ? (
                    <p className="text-sm text-slate-500">No finished runs in this period.</p>
                  ) : (
                    <table className="w-full text-sm">
                      <thead className="text-left text-xs text-slate-500">
                        <tr>
                          <th className="pb-2 font-medium">Pipeline</th>
                          <th className="pb-2 text-right font-medium">Failed</th>
                          <th className="w-32 pb-2 pl-4 font-medium">Failure rate</th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-100">
                        {d.failing_pipelines.map((p) => (
                          <tr key={p.pipeline_id}>
                            <td className="py-2 pr-2">
                              <Link href={`/executions?pipeline=${p.pipeline_id}&status=failed`} className="text-teal-700 hover:underline">
                                {p.name}
                              </Link>
                            </td>
                            <td className="py-2 text-right tabular-nums">
                              {p.failed} <span className="text-slate-400">/ {p.runs}</span>
                            </td>
                            <td className="py-2 pl-4">
                              <span className="mb-1 block text-xs tabular-nums text-slate-600">{pct(p.failure_rate)}</span>
                              <Bar ratio={p.failure_rate} tone="bg-red-500" />
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </Card>
                <Card className="p-5">
                  <h2 className="mb-3 text-sm font-semibold text-slate-800">Slowest nodes (95th percentile)</h2>
                  {d.slowest_nodes.length === 0 ? (
                    <p className="text-sm text-slate-500">No node has run in this period.</p>
                  ) : (
                    <table className="w-full text-sm">
                      <thead className="text-left text-xs text-slate-500">
                        <tr>
                          <th className="pb-2 font-medium">Node</th>
                          <th className="pb-2 text-right font-medium">Average</th>
                          <th className="w-32 pb-2 pl-4 font-medium">p95</th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-100">
                        {d.slowest_nodes.map((n) => (
                          <tr key={`${n.pipeline_id}:${n.node_id}`}>
                            <td className="py-2 pr-2">
                              <Link href={`/pipelines/${n.pipeline_id}`} className="text-teal-700 hover:underline">
                                {n.node_id}
                              </Link>
                              <span className="block text-xs text-slate-500">
                                {n.node_type} · {n.pipeline_name} · {n.runs} {n.runs === 1 ? 'run' : 'runs'}
                              </span>
                            </td>
                            <td className="py-2 text-right tabular-nums">{ms(n.avg_ms)}</td>
                            <td className="py-2 pl-4">
                              <span className="mb-1 block text-xs tabular-nums text-slate-600">{ms(n.p95_ms)}</span>
                              <Bar ratio={n.p95_ms / slowest} tone="bg-amber-500" />
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </Card>
              </div>
              <StorageCard />
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
