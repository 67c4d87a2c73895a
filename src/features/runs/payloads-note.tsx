import { EyeOff } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import type { DataPolicy, PayloadState } from '@/shared/data-settings';

interface Run {
  payloads: PayloadState;
  data_policy: DataPolicy | null;
  status: string;
}

/** Why a run shows no data, in one plain sentence; null when its data is there. */
export function notKeptText(run: Run): string | null {
  switch (run.payloads) {
    case 'kept':
      return null;
    case 'pruned':
      return "This run's data was deleted when its retention period ended; its status, timings and errors remain.";
    case 'input':
      return "Only this run's input was kept: it failed before its nodes' data could be stored. Retry it from the trigger.";
    case 'not_kept':
      return run.data_policy === 'metadata'
        ? 'This pipeline keeps no run data (data policy “Status only”): only status, timings and errors were stored.'
        : 'This run succeeded and its pipeline keeps data only for failed runs (data policy “Only failed runs”): only status, timings and errors were stored.';
  }
}

/** Said in place of a run's (or a node's) inputs and outputs when they were not kept, instead of empty data. */
export function PayloadsNotKept({ run, className }: { run: Run; className?: string }) {
  const text = notKeptText(run);
  if (!text) return null;
  return (
    <div
      className={cn('flex gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2.5 text-sm text-slate-700', className)}
      role="note"
      data-testid="payloads-not-kept"
    >
      <EyeOff className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden />
      <p>
        <span className="font-medium text-slate-900">Data not kept. </span>
        {text}
      </p>
    </div>
  );
}

/** Whether "retry from" a node can work: it needs the stored outputs upstream (or, from the trigger, the kept input). */
export function canRetryFrom(run: Run, nodeIsTrigger: boolean): boolean {
  return run.payloads === 'kept' || (nodeIsTrigger && run.payloads === 'input');
}
