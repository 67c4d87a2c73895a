import { Ban, CheckCircle2, Clock, Loader2, type LucideIcon, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

type Tone = 'green' | 'slate' | 'red' | 'teal' | 'amber';

const EXECUTION_LOOK: Record<string, { label: string; tone: Tone; icon: LucideIcon; help: string }> = {
  queued: { label: 'Queued', tone: 'amber', icon: Clock, help: 'Waiting for a worker to pick it up' },
  running: { label: 'Running', tone: 'teal', icon: Loader2, help: 'Nodes are running' },
  completed: { label: 'Completed', tone: 'green', icon: CheckCircle2, help: 'Every node completed or was skipped' },
  failed: { label: 'Failed', tone: 'red', icon: XCircle, help: 'A node failed; see the error' },
  cancelled: { label: 'Cancelled', tone: 'slate', icon: Ban, help: 'Stopped before it finished' },
};

export function executionStatusLabel(status: string): string {
  return EXECUTION_LOOK[status]?.label ?? status;
}

/** Status of a whole execution, with an icon (spinning while it runs). */
export function ExecutionStatusBadge({ status }: { status: string }) {
  const look = EXECUTION_LOOK[status] ?? { label: status, tone: 'slate' as const, icon: Clock, help: status };
  const Icon = look.icon;
  return (
    <span title={look.help} data-testid="run-status" data-status={status}>
      <Badge tone={look.tone}>
        <Icon className={status === 'running' ? 'size-3 animate-spin' : 'size-3'} aria-hidden />
        {look.label}
      </Badge>
    </span>
  );
}

/** Colours of a node's bar on the timeline and of its status pill. */
export const NODE_LOOK: Record<string, { label: string; bar: string; pill: string; dot: string }> = {
  completed: { label: 'Completed', bar: 'bg-emerald-500', pill: 'bg-emerald-50 text-emerald-700', dot: 'bg-emerald-500' },
  failed: { label: 'Failed', bar: 'bg-red-500', pill: 'bg-red-50 text-red-700', dot: 'bg-red-500' },
  running: { label: 'Running', bar: 'bg-sky-500 animate-pulse', pill: 'bg-sky-50 text-sky-700', dot: 'bg-sky-500' },
  waiting: { label: 'Waiting', bar: 'bg-sky-300', pill: 'bg-sky-50 text-sky-700', dot: 'bg-sky-300' },
  simulated: { label: 'Simulated', bar: 'bg-violet-500', pill: 'bg-violet-50 text-violet-700', dot: 'bg-violet-500' },
  skipped: { label: 'Skipped', bar: 'bg-slate-300', pill: 'bg-slate-100 text-slate-500', dot: 'bg-slate-300' },
  pending: { label: 'Pending', bar: 'bg-slate-300', pill: 'bg-slate-100 text-slate-500', dot: 'bg-slate-300' },
};

export function nodeLook(status: string) {
  return NODE_LOOK[status] ?? NODE_LOOK.pending!;
}

/** The trigger an execution came from, in words. */
export const TRIGGER_LABEL: Record<string, string> = {
  api: 'API',
  editor: 'Editor',
  async: 'API (async)',
  schedule: 'Schedule',
  webhook: 'Webhook',
  retry: 'Retry',
  step: 'Step-through',
};

export function triggerLabel(trigger: string): string {
  return TRIGGER_LABEL[trigger] ?? trigger;
}
