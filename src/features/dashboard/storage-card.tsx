'use client';

import { Database, Scissors } from 'lucide-react';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueryState } from '@/components/ui/query-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { api, type RouterOutputs } from '@/trpc/react';

type Retention = NonNullable<RouterOutputs['storage']['report']['pipelines'][number]['retention']>;

/** 1234567 as "1,234,567" (the reader's locale). */
const grouped = (n: number): string => n.toLocaleString();

/** 1,234,567 bytes as "1.2 MB". */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

const days = (n: number | null, what: string) => (n === null ? `${what} kept` : `${what} ${n} d`);

function retentionText(r: Retention | null): string {
  if (!r) return '—';
  return [days(r.payload_days, 'payloads'), days(r.execution_days, 'runs'), r.max_executions === null ? null : `newest ${r.max_executions.toLocaleString()}`]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The storage each pipeline's runs use and what the pruner removed (GET /api/storage): run counts are exact, sizes an
 * estimate from a sample of each pipeline's runs. An admin can run the pruner now.
 */
export function StorageCard() {
  const utils = api.useUtils();
  const report = api.storage.report.useQuery({}, { refetchInterval: 60_000 });
  const prune = api.storage.prune.useMutation({
    onSuccess: (r) => {
      void utils.storage.report.invalidate();
      void utils.executions.invalidate();
      if (r.status === 'queued' || r.status === 'running') toast.info('The pruner is still running; the figures update when it ends.');
      else {
        const freed = formatBytes(r.bytes_freed);
        toast.success(`Pruner ${r.status}: ${r.executions_deleted} runs deleted, ${r.payloads_pruned} payloads removed, ${freed} freed`);
      }
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex items-center gap-1.5 text-sm font-semibold text-slate-800">
          <Database className="size-4 text-slate-500" aria-hidden />
          Storage and retention
        </h2>
        <Button variant="secondary" size="sm" icon={<Scissors className="size-3.5" aria-hidden />} loading={prune.isPending} onClick={() => prune.mutate({})}>
          Prune now
        </Button>
      </div>
      <QueryState query={report} what="storage">
        {(d) => (
          <div className="space-y-3">
            <p className="text-sm text-slate-600" data-testid="pruner-last-run">
              {d.pruner.last_run ? (
                <>
                  Pruner last ran <RelativeTime iso={d.pruner.last_run.started_at} /> ({d.pruner.last_run.status}): it removed{' '}
                  {grouped(d.pruner.last_run.executions_deleted)} runs and the payloads of {grouped(d.pruner.last_run.payloads_pruned)} here,{' '}
                  {formatBytes(d.pruner.last_run.bytes_freed)}. Last 7 days: {grouped(d.pruner.last_7_days.executions_deleted)} runs,{' '}
                  {grouped(d.pruner.last_7_days.payloads_pruned)} payloads, {formatBytes(d.pruner.last_7_days.bytes_freed)}.
                </>
              ) : (
                'The pruner has not run yet: it runs every few minutes and removes what each pipeline’s retention no longer keeps.'
              )}
            </p>
            {d.pipelines.length === 0 ? (
              <p className="text-sm text-slate-500">No runs are stored. Run a pipeline and its runs appear here with the space they use.</p>
            ) : (
              <table className="w-full text-sm">
                <thead className="text-left text-xs text-slate-500">
                  <tr>
                    <th className="pb-2 font-medium">Pipeline</th>
                    <th className="pb-2 text-right font-medium">Runs</th>
                    <th className="pb-2 text-right font-medium" title="An estimate from a sample of each pipeline’s runs">
                      Size (est.)
                    </th>
                    <th className="pb-2 pl-4 font-medium">Retention</th>
                    <th className="pb-2 text-right font-medium">Removed, 7 days</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {d.pipelines.map((p) => (
                    <tr key={p.pipeline_id}>
                      <td className="py-2 pr-2">
                        {p.name === null ? (
                          <span className="text-slate-500">deleted pipeline</span>
                        ) : (
                          <Link href={`/pipelines/${p.pipeline_id}`} className="text-teal-700 hover:underline">
                            {p.name}
                          </Link>
                        )}
                      </td>
                      <td className="py-2 text-right tabular-nums">
                        {p.executions.toLocaleString()}
                        <span className="block text-xs text-slate-500">
                          {p.with_payloads.toLocaleString()} with payloads · {(p.payloads_pruned + p.payloads_not_kept).toLocaleString()} without
                        </span>
                      </td>
                      <td className="py-2 text-right tabular-nums">{formatBytes(p.estimated_bytes)}</td>
                      <td className="py-2 pl-4 text-xs text-slate-600">{retentionText(p.retention)}</td>
                      <td className="py-2 text-right text-xs tabular-nums text-slate-600">
                        {p.removed_last_7_days.executions_deleted.toLocaleString()} runs · {p.removed_last_7_days.payloads_pruned.toLocaleString()} payloads
                        <span className="block">{formatBytes(p.removed_last_7_days.bytes_freed)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
                <tfoot className="text-xs text-slate-500">
                  <tr>
                    <td className="pt-2">All pipelines</td>
                    <td className="pt-2 text-right tabular-nums">{d.total.executions.toLocaleString()}</td>
                    <td className="pt-2 text-right tabular-nums">{formatBytes(d.total.estimated_bytes)}</td>
                    <td colSpan={2} />
                  </tr>
                </tfoot>
              </table>
            )}
          </div>
        )}
      </QueryState>
    </Card>
  );
}
