'use client';

import { ArrowLeft, Bug, FlaskConical, Pencil, RotateCcw } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { formatDuration } from '@/components/format';
import { ExecutionStatusBadge, triggerLabel } from './execution-look';
import { shortId, type ExecutionDetail } from './types';
import { cn } from '@/components/ui/cn';

const LINK = 'font-medium text-teal-700 hover:underline';

/** "Nov 22, 06:20:53", the full date and milliseconds on hover. */
function clock(iso: string | null) {
  if (!iso) return null;
  const d = new Date(iso);
  const text = d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  return (
    <time
      dateTime={iso}
      title={`${d.toLocaleDateString()} ${d.toLocaleTimeString(undefined, { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`}
    >
      {text}
    </time>
  );
}

/** Title, status and facts of one execution, with its error when it failed. */
export function RunHeader({ run, pipelineName, onShowNode }: { run: ExecutionDetail; pipelineName: string | undefined; onShowNode: (id: string) => void }) {
  const live = run.status === 'queued' || run.status === 'running';
  const failedNode = run.error?.node_id ?? null;
  return (
    <div className="mb-6">
      <Link href="/executions" className="mb-3 inline-flex items-center gap-1.5 text-sm font-medium text-teal-700 hover:underline">
        <ArrowLeft className="size-4" aria-hidden />
        Executions
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2.5">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
              Execution{' '}
              <span className="font-mono text-xl text-slate-600" title={run.id}>
                {shortId(run.id)}
              </span>
            </h1>
            <ExecutionStatusBadge status={run.status} />
            {run.test_mode ? (
              <span
                className={cn(
                  'inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5',
                  'text-xs font-medium text-amber-800 ring-1 ring-amber-600/20 ring-inset',
                )}
                title="Test mode: nothing was written to external systems"
              >
                <FlaskConical className="size-3" aria-hidden />
                Test mode
              </span>
            ) : null}
          </div>
          <p className="mt-1 text-sm text-slate-500">
            {pipelineName ? (
              <Link href={`/pipelines/${run.pipeline_id}`} className={LINK}>
                {pipelineName}
              </Link>
            ) : (
              <Link href={`/pipelines/${run.pipeline_id}`} className={`${LINK} font-mono`} title="The pipeline may have been deleted">
                Pipeline {shortId(run.pipeline_id)}
              </Link>
            )}{' '}
            · version {run.pipeline_version} · {live ? 'started' : 'ran'} <RelativeTime iso={run.started_at ?? run.created_at} />
          </p>
        </div>
        <div className="flex gap-2">
          {run.inputs !== null ? (
            <Link
              href={`/pipelines/${run.pipeline_id}?debug=${run.id}`}
              className={buttonClasses('secondary')}
              title="Open the pipeline with this run's inputs as the test inputs and its results in the drawer"
            >
              <Bug className="size-4" aria-hidden />
              Debug in editor
            </Link>
          ) : null}
          <Link href={`/pipelines/${run.pipeline_id}`} className={buttonClasses('secondary')}>
            <Pencil className="size-4" aria-hidden />
            Open pipeline in editor
          </Link>
        </div>
      </div>
      <dl className="mt-5 grid grid-cols-2 gap-px overflow-hidden rounded-xl border border-slate-200 bg-slate-200 shadow-sm sm:grid-cols-3 lg:grid-cols-6">
        <Fact label="Trigger">
          <span className="inline-flex items-center gap-1.5">
            {run.trigger === 'retry' ? <RotateCcw className="size-3.5 text-slate-400" aria-hidden /> : null}
            {triggerLabel(run.trigger)}
          </span>
        </Fact>
        {run.starts_after ? (
          // an MLLP feed's run (never a retry, which would show "Retry of" here): the message before it from its sender
          <Fact label="Runs after">
            <Link
              href={`/executions/${run.starts_after}`}
              className={`${LINK} font-mono`}
              title={`${run.starts_after}: the message before this one from the same sender; this run started once that one ended`}
            >
              {shortId(run.starts_after)}
            </Link>
          </Fact>
        ) : (
          <Fact label="Retry of">
            {run.retry_of ? (
              <Link href={`/executions/${run.retry_of}`} className={`${LINK} font-mono`} title={run.retry_of}>
                {shortId(run.retry_of)}
              </Link>
            ) : (
              <span className="text-slate-400">—</span>
            )}
          </Fact>
        )}
        <Fact label="Created">{clock(run.created_at)}</Fact>
        <Fact label="Started">{clock(run.started_at) ?? <span className="text-slate-400">{live ? 'waiting…' : '—'}</span>}</Fact>
        <Fact label="Finished">{clock(run.finished_at) ?? <span className="text-slate-400">{live ? 'under way…' : '—'}</span>}</Fact>
        <Fact label="Duration">
          {run.duration_ms !== null ? formatDuration(run.duration_ms) || '0 ms' : <span className="text-slate-400">{live ? 'under way…' : '—'}</span>}
        </Fact>
      </dl>
      {run.error ? (
        <div
          role="alert"
          className="mt-4 flex flex-wrap items-start gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          data-testid="run-error"
        >
          <div className="min-w-0 flex-1">
            <p className="font-medium">
              {run.error.node_id ? (
                <>
                  Node <span className="font-mono">{run.error.node_id}</span> failed
                </>
              ) : (
                'The execution failed'
              )}
              <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 font-mono text-[11px] font-semibold">{run.error.code}</span>
            </p>
            <p className="mt-1 break-words whitespace-pre-wrap">{run.error.message}</p>
          </div>
          {failedNode ? (
            <button type="button" onClick={() => onShowNode(failedNode)} className="text-sm font-medium text-red-800 underline-offset-2 hover:underline">
              Show node
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="bg-white px-4 py-3">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 truncate text-sm text-slate-900 tabular-nums">{children}</dd>
    </div>
  );
}
