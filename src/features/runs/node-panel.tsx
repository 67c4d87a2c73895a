'use client';

import { RotateCcw } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDuration } from '@/components/format';
import { NodeDataView } from '@/features/clinical-views/node-data-view';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { nodeLook } from './execution-look';
import { canRetryFrom, PayloadsNotKept } from './payloads-note';
import type { ExecutionDetail, ExecutionNode } from './types';

const LEVEL: Record<string, string> = { error: 'text-red-600', warn: 'text-amber-600', info: 'text-sky-700', debug: 'text-slate-400' };

export function SectionTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="mb-1.5 flex items-center justify-between gap-2">
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{children}</h3>
      {aside}
    </div>
  );
}

/** The selected node of the timeline: its error, inputs, outputs and logs; retry the run from it. */
export function NodePanel({ execution, node }: { execution: ExecutionDetail; node: ExecutionNode }) {
  const look = nodeLook(node.status);
  const [confirming, setConfirming] = useState(false);
  // the node's config in the version the run used gives its ports' types (a manual trigger's fields…)
  const version = api.pipelines.version.useQuery({ id: execution.pipeline_id, n: execution.pipeline_version }, { staleTime: Infinity, retry: false });
  const config = version.data?.definition.nodes.find((n) => n.id === node.node_id && n.type === node.node_type)?.config;
  return (
    <div className="space-y-4 p-4" data-testid="node-panel" aria-label={`Node ${node.node_id}`} role="region">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <h3 className="font-mono text-sm font-semibold text-slate-900">{node.node_id}</h3>
        <span className="text-xs text-slate-500">{node.node_type}</span>
        <span className={cn('rounded px-1.5 py-0.5 text-[11px] font-semibold uppercase', look.pill)}>{look.label}</span>
        {node.duration_ms !== null ? <span className="text-xs text-slate-500 tabular-nums">{formatDuration(node.duration_ms)}</span> : null}
        {node.attempts > 1 ? <span className="text-xs font-medium text-amber-700">{node.attempts} attempts</span> : null}
        {node.started_at ? (
          <span className="text-xs text-slate-400 tabular-nums" title={node.started_at}>
            started{' '}
            {new Date(node.started_at).toLocaleTimeString(undefined, {
              hour: '2-digit',
              minute: '2-digit',
              second: '2-digit',
              fractionalSecondDigits: 3,
              hour12: false,
            })}
          </span>
        ) : null}
        {execution.status !== 'queued' && execution.status !== 'running' && canRetryFrom(execution, node.node_type.endsWith('-trigger')) ? (
          <Button size="sm" variant="secondary" className="ml-auto" icon={<RotateCcw className="size-3.5" aria-hidden />} onClick={() => setConfirming(true)}>
            Retry from here
          </Button>
        ) : null}
      </div>
      {node.error ? (
        <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="node-error">
          <p className="font-mono text-xs font-semibold">{node.error.code}</p>
          <p className="mt-1 break-words whitespace-pre-wrap">{node.error.message}</p>
        </div>
      ) : null}
      {node.payloads !== 'kept' ? (
        <PayloadsNotKept run={execution} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="min-w-0">
            <SectionTitle>Inputs</SectionTitle>
            <NodeDataView key={`${node.node_id}:in`} value={node.inputs} nodeType={node.node_type} config={config} side="inputs" label="Node inputs" />
          </div>
          <div className="min-w-0">
            <SectionTitle>Outputs</SectionTitle>
            <NodeDataView key={`${node.node_id}:out`} value={node.outputs} nodeType={node.node_type} config={config} side="outputs" label="Node outputs" />
          </div>
        </div>
      )}
      <div>
        <SectionTitle>Logs{node.logs.length ? ` (${node.logs.length})` : ''}</SectionTitle>
        {node.logs.length === 0 ? (
          <p className="text-xs text-slate-400 italic">No log lines.</p>
        ) : (
          <ol
            className="max-h-60 space-y-0.5 overflow-auto rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-[11px]"
            aria-label="Node logs"
          >
            {node.logs.map((l, i) => (
              <li key={i} className="flex gap-2">
                <span className="shrink-0 text-slate-400 tabular-nums">{new Date(l.time).toLocaleTimeString(undefined, { hour12: false })}</span>
                <span className={cn('w-10 shrink-0 uppercase', LEVEL[l.level] ?? 'text-slate-600')}>{l.level}</span>
                <span className="break-all text-slate-700">{l.message}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
      <RetryConfirm execution={execution} node={node} open={confirming} onClose={() => setConfirming(false)} />
    </div>
  );
}

function RetryConfirm({ execution, node, open, onClose }: { execution: ExecutionDetail; node: ExecutionNode; open: boolean; onClose: () => void }) {
  const router = useRouter();
  const utils = api.useUtils();
  const retry = api.executions.retry.useMutation({
    onSuccess: async (r) => {
      toast.success(`Retry ${r.status}`);
      onClose();
      await utils.executions.list.invalidate();
      router.push(`/executions/${r.execution_id}`);
    },
  });
  return (
    <ConfirmDialog
      open={open}
      onClose={() => {
        retry.reset();
        onClose();
      }}
      onConfirm={() => retry.mutate({ execution_id: execution.id, node_id: node.node_id })}
      title={`Retry from “${node.node_id}”`}
      description={[
        `A new ${execution.test_mode ? 'test ' : ''}execution re-runs this node and`,
        `everything downstream with the inputs they had; nodes upstream keep their outputs.`,
      ].join(' ')}
      confirmLabel="Retry"
      pending={retry.isPending}
      error={retry.error ? errorMessage(retry.error) : null}
    />
  );
}
