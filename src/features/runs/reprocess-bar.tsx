'use client';

import { RotateCcw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { api } from '@/trpc/react';

const INPUT = [
  'h-9 w-64 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-800',
  'shadow-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
].join(' ');

interface Props {
  status: 'failed' | 'cancelled';
  pipelineId?: string;
  since?: string;
  until?: string;
}

/** Error codes as typed: upper-cased, split on commas and spaces. */
const codesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);

/**
 * The failed (or cancelled) production runs the list's filters select, narrowed by error code, retried in bulk from
 * their failed node (POST /api/executions/reprocess), with the job's progress until it completes.
 */
export function ReprocessBar({ status, pipelineId, since, until }: Props) {
  const [codeText, setCodeText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const utils = api.useUtils();
  const filter = { status, pipeline_id: pipelineId, since, until, error_code: codesOf(codeText).length ? codesOf(codeText) : undefined };
  const key = JSON.stringify(filter);
  const count = api.executions.reprocess.useMutation();
  const start = api.executions.reprocess.useMutation({
    onSuccess: (r) => {
      setConfirming(false);
      setJobId(r.job_id);
    },
  });
  const job = api.executions.reprocessGet.useQuery(
    { id: jobId ?? '', limit: 1 },
    { enabled: !!jobId, refetchInterval: (q) => (q.state.data?.status === 'completed' ? false : 1000) },
  );
  const countRun = count.mutate;
  useEffect(() => {
    const t = setTimeout(() => countRun({ ...JSON.parse(key), dry_run: true }), 300);
    return () => clearTimeout(t);
  }, [key, countRun]);
  const completed = job.data?.status === 'completed';
  useEffect(() => {
    if (!completed) return;
    void utils.executions.list.invalidate();
    void utils.executions.stats.invalidate();
    countRun({ ...JSON.parse(key), dry_run: true });
    // once per finished job: the count and the list change then
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [completed]);

  const matched = count.data?.matched;
  const notKept = count.data?.not_kept ?? 0;
  const p = job.data;
  const finished = p ? p.done + p.failed + p.skipped : 0;
  return (
    <section aria-label="Reprocess in bulk" className="space-y-3 border-b border-slate-200 bg-slate-50 px-4 py-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className="space-y-1">
          <span className="block text-xs font-medium text-slate-600">Error codes (optional)</span>
          <input
            aria-label="Error codes"
            className={INPUT}
            placeholder="e.g. FHIR_UNAVAILABLE, TIMEOUT"
            value={codeText}
            maxLength={500}
            onChange={(e) => setCodeText(e.target.value)}
          />
        </label>
        <p className="flex-1 pb-2 text-sm text-slate-600" role="status" aria-label="Runs to reprocess">
          {matched === undefined ? (
            'Counting…'
          ) : (
            <>
              <strong className="font-semibold text-slate-800">{matched}</strong> {status} production {matched === 1 ? 'run' : 'runs'} not yet retried match
              these filters{notKept ? ` (${notKept} kept no payloads and will be skipped)` : ''}. Search text is not part of the selection.
            </>
          )}
        </p>
        <Button icon={<RotateCcw className="size-4" aria-hidden />} disabled={!matched || (!!p && !completed)} onClick={() => setConfirming(true)}>
          Reprocess {matched ?? ''} {matched === 1 ? 'run' : 'runs'}
        </Button>
      </div>
      {count.error ? <Alert>{count.error.message}</Alert> : null}
      {p ? (
        <div className="space-y-1.5" role="status" aria-label="Reprocess progress">
          <div className="flex flex-wrap gap-x-4 text-sm text-slate-700">
            <span className="font-medium">{completed ? 'Reprocess complete' : 'Reprocessing…'}</span>
            <span>
              {finished} of {p.total} finished
            </span>
            <span className="text-teal-700">{p.done} done</span>
            <span className={p.failed ? 'text-red-700' : undefined}>{p.failed} failed</span>
            <span className={p.skipped ? 'text-amber-700' : undefined}>{p.skipped} skipped</span>
            <span>{p.queued} queued</span>
          </div>
          <div className="h-2 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full bg-teal-600 transition-all" style={{ width: `${p.total ? (100 * finished) / p.total : 100}%` }} />
          </div>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => start.mutate({ ...filter, dry_run: false })}
        title={`Reprocess ${matched ?? 0} ${status} runs?`}
        description={[
          'Each run is retried from the node it failed at, on its recorded inputs, as a new execution linked',
          "to it. Writes reuse the run's idempotency keys, so nothing already written is written twice.",
        ].join(' ')}
        confirmLabel="Reprocess"
        pending={start.isPending}
        error={start.error?.message ?? null}
      />
    </section>
  );
}
