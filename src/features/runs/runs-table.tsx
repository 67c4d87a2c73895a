'use client';

import { FlaskConical, RotateCcw } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { RelativeTime } from '@/components/ui/relative-time';
import { formatDuration } from '@/components/format';
import { ExecutionStatusBadge, triggerLabel } from './execution-look';
import { shortId, type ExecutionSummary } from './types';
import { DataTable } from '@/components/ui/data-table';
import { cn } from '@/components/ui/cn';

/** Runs, newest first; a row opens the run's detail page. */
export function RunsTable({ runs, names }: { runs: ExecutionSummary[]; names: Map<string, string> }) {
  return (
    <DataTable
      label="Executions"
      columns={[
        { header: 'Status' },
        { header: 'Pipeline' },
        { header: 'Trigger' },
        { header: 'Started' },
        { header: 'Duration', align: 'right' },
        { header: 'Run' },
      ]}
      rows={runs}
      row={(r) => <RunRow key={r.id} run={r} name={names.get(r.pipeline_id)} />}
    />
  );
}

function RunRow({ run: r, name }: { run: ExecutionSummary; name: string | undefined }) {
  const router = useRouter();
  const href = `/executions/${r.id}`;
  return (
    <tr className="cursor-pointer align-top hover:bg-slate-50/60" onClick={() => router.push(href)} data-run-id={r.id}>
      <td className="px-4 py-3 whitespace-nowrap">
        <ExecutionStatusBadge status={r.status} />
      </td>
      <td className="max-w-xs px-4 py-3">
        <div className="flex items-center gap-2">
          {name ? (
            <span className="truncate text-sm font-medium text-slate-900" title={name}>
              {name}
            </span>
          ) : (
            <span className="font-mono text-sm text-slate-500" title={`Pipeline ${r.pipeline_id} (deleted or not among the first 100)`}>
              {shortId(r.pipeline_id)}
            </span>
          )}
          <span className="shrink-0 text-xs text-slate-400 tabular-nums">v{r.pipeline_version}</span>
        </div>
        {r.status === 'failed' && r.error ? (
          <p className="mt-0.5 max-w-md truncate text-xs text-red-700" title={r.error.message} data-testid="run-error">
            {r.error.node_id && !r.error.message.includes(`"${r.error.node_id}"`) ? <span className="font-mono">{r.error.node_id}: </span> : null}
            {r.error.message}
          </p>
        ) : null}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        <div className="flex items-center gap-1.5 text-sm text-slate-600">
          {r.trigger === 'retry' ? <RotateCcw className="size-3.5 text-slate-400" aria-hidden /> : null}
          {triggerLabel(r.trigger)}
          {r.test_mode ? (
            <span
              className={cn(
                'inline-flex items-center gap-1 rounded bg-amber-50 px-1.5 py-0.5',
                'text-[11px] font-medium text-amber-800 ring-1 ring-amber-600/20 ring-inset',
              )}
              title="Test mode: nothing was written to external systems"
            >
              <FlaskConical className="size-3" aria-hidden />
              Test
            </span>
          ) : null}
        </div>
      </td>
      <td className="px-4 py-3 text-sm whitespace-nowrap text-slate-600">
        <RelativeTime iso={r.started_at ?? r.created_at} />
      </td>
      <td className="px-4 py-3 text-right text-sm whitespace-nowrap text-slate-600 tabular-nums">
        {r.duration_ms !== null ? formatDuration(r.duration_ms) : <span className="text-slate-400">—</span>}
      </td>
      <td className="px-4 py-3 whitespace-nowrap">
        <Link
          href={href}
          onClick={(e) => e.stopPropagation()}
          className="font-mono text-xs text-teal-700 hover:underline"
          aria-label={`Open execution ${shortId(r.id)}`}
        >
          {shortId(r.id)}
        </Link>
      </td>
    </tr>
  );
}
