'use client';

import { ExternalLink, RotateCcw, X } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { RelativeTime } from '@/components/ui/relative-time';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { ExecutionNodeDetail } from './execution-node-detail';
import { formatDuration } from '@/components/format';
import { STATUS_LOOK } from './node-look';
import { RetryDialog } from './retry-dialog';
import { asRunStatus, FINISHED, fromDetail } from './run-status';
import { useEditor, useEditorStoreApi } from './store-provider';
import type { ExecutionDetail, ExecutionNode } from './types';

const EXEC_TONE: Record<string, 'green' | 'red' | 'slate' | 'teal' | 'amber'> = {
  completed: 'green',
  failed: 'red',
  cancelled: 'slate',
  running: 'teal',
  queued: 'amber',
};

/** Keeps the canvas statuses in step with the shown execution, polling while it is under way. */
function useExecution(id: string | null) {
  const store = useEditorStoreApi();
  const query = api.executions.get.useQuery(
    { id: id ?? '' },
    { enabled: !!id, refetchInterval: (q) => (q.state.data && FINISHED.has(q.state.data.status) ? false : 700) },
  );
  const data = query.data;
  useEffect(() => {
    if (!data || data.id !== store.getState().executionId) return;
    const s = store.getState();
    const current = s.step?.status === 'waiting' && s.step.execution_id === data.id ? s.step.current_node : null;
    s.setRun(
      fromDetail(
        data,
        s.nodes.map((n) => n.id),
        current,
      ),
      current,
    );
  }, [data, store]);
  return query;
}

/** The execution drawer: each node's status, inputs, outputs, logs and error; retry from any node. */
export function ExecutionDrawer() {
  const { executionId, setExecution, setRun, selected } = useEditor((s) => ({
    executionId: s.executionId,
    setExecution: s.setExecution,
    setRun: s.setRun,
    selected: s.nodes.find((n) => n.selected)?.id ?? null,
  }));
  const query = useExecution(executionId);
  const [picked, setPicked] = useState<string | null>(null);
  const [retrying, setRetrying] = useState<ExecutionNode | null>(null);
  const detail = query.data?.id === executionId ? query.data : undefined;
  const shown = picked ?? selected;

  if (!executionId) return null;
  const close = () => {
    setExecution(null);
    setRun({}, null);
  };
  return (
    <div className="flex h-full flex-col border-t border-slate-200 bg-white" role="region" aria-label="Execution">
      <DrawerHeader detail={detail} executionId={executionId} onClose={close} />
      {query.isError && !detail ? (
        <p className="p-4 text-sm text-red-700">{errorMessage(query.error)}</p>
      ) : !detail ? (
        <Spinner label="Loading execution…" />
      ) : (
        <div className="@container/drawer flex min-h-0 flex-1">
          <ul className="w-56 shrink-0 @3xl/drawer:w-72 overflow-y-auto border-r border-slate-100 py-1" aria-label="Executed nodes">
            {detail.nodes.length === 0 ? <li className="px-4 py-3 text-xs text-slate-500">No node has run yet.</li> : null}
            {detail.nodes.map((n) => {
              const st = STATUS_LOOK[asRunStatus(n.status)];
              return (
                <li key={n.node_id}>
                  <button
                    type="button"
                    onClick={() => setPicked(n.node_id)}
                    data-testid={`exec-node-${n.node_id}`}
                    className={cn('flex w-full items-center gap-2 px-4 py-1.5 text-left text-xs hover:bg-slate-50', shown === n.node_id && 'bg-teal-50/70')}
                  >
                    <span className={cn('rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase', st.pill)}>{st.label}</span>
                    <span className="min-w-0 flex-1 truncate font-mono text-slate-700">{n.node_id}</span>
                    <span className="text-slate-400 tabular-nums">{formatDuration(n.duration_ms)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="@container/detail min-w-0 flex-1 overflow-y-auto">
            <ExecutionNodeDetail detail={detail} nodeId={shown} onRetry={setRetrying} />
          </div>
        </div>
      )}
      {retrying ? <RetryDialog key={retrying.node_id} executionId={executionId} node={retrying} onClose={() => setRetrying(null)} /> : null}
    </div>
  );
}

function DrawerHeader({ detail, executionId, onClose }: { detail: ExecutionDetail | undefined; executionId: string; onClose: () => void }) {
  const setExecution = useEditor((s) => s.setExecution);
  return (
    <div className="flex items-center gap-2.5 border-b border-slate-100 px-4 py-2">
      <h2 className="text-sm font-semibold text-slate-900">Execution</h2>
      <span className="font-mono text-[11px] text-slate-500" title={executionId}>
        {executionId.slice(0, 8)}
      </span>
      {detail ? (
        <>
          <Badge tone={EXEC_TONE[detail.status] ?? 'slate'} dot>
            <span data-testid="execution-status">{detail.status}</span>
          </Badge>
          {detail.test_mode ? <Badge tone="amber">test</Badge> : null}
          <span className="text-xs text-slate-500">v{detail.pipeline_version}</span>
          {detail.duration_ms !== null ? <span className="text-xs text-slate-500 tabular-nums">{formatDuration(detail.duration_ms)}</span> : null}
          <span className="text-xs text-slate-400">
            <RelativeTime iso={detail.started_at ?? detail.created_at} />
          </span>
          {detail.retry_of ? (
            <button
              type="button"
              onClick={() => setExecution(detail.retry_of)}
              className="inline-flex items-center gap-1 text-xs text-teal-700 hover:underline"
            >
              <RotateCcw className="size-3" aria-hidden />
              retry of {detail.retry_of.slice(0, 8)}
            </button>
          ) : null}
          {detail.error ? (
            <span className="min-w-0 truncate text-xs text-red-700" title={detail.error.message}>
              {detail.error.node_id ? `${detail.error.node_id}: ` : ''}
              {detail.error.message}
            </span>
          ) : null}
        </>
      ) : null}
      <Link
        href={`/executions/${executionId}`}
        className="ml-auto inline-flex shrink-0 items-center gap-1 text-xs font-medium whitespace-nowrap text-teal-700 hover:underline"
        title="The execution's page: per-node timeline, inputs, outputs and logs"
      >
        <ExternalLink className="size-3.5" aria-hidden />
        Open in executions
      </Link>
      <Button variant="ghost" size="icon" onClick={onClose} aria-label="Close execution" title="Close (clears the statuses on the canvas)">
        <X className="size-4" aria-hidden />
      </Button>
    </div>
  );
}
