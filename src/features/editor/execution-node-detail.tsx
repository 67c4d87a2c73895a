'use client';

import { Pin, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Tabs } from '@/components/ui/tabs';
import { NodeDataView } from '@/features/clinical-views/node-data-view';
import { formatDuration } from '@/components/format';
import { STATUS_LOOK } from './node-look';
import { asRunStatus } from './run-status';
import { useEditor } from './store-provider';
import type { ExecutionDetail, ExecutionNode } from './types';
import { SKIP_REASON_TEXT } from '@/shared/statuses';
import { canRetryFrom, PayloadsNotKept } from '@/features/runs/payloads-note';

type Tab = 'inputs' | 'outputs' | 'logs' | 'error';

const LEVEL: Record<string, string> = { error: 'text-red-600', warn: 'text-amber-600', info: 'text-slate-700', debug: 'text-slate-400' };

/** One node of an execution (or the execution itself when no node is picked). */
export function ExecutionNodeDetail({ detail, nodeId, onRetry }: { detail: ExecutionDetail; nodeId: string | null; onRetry: (n: ExecutionNode) => void }) {
  const node = detail.nodes.find((n) => n.node_id === nodeId);
  // the tab a person picked, per node; a node opens on its error when it failed, else on its outputs
  const [choice, setChoice] = useState<{ node: string; tab: Tab } | null>(null);
  // the node's config on the canvas gives its ports' types (a manual trigger's fields…), so values show as what they are
  const config = useEditor((s) => s.nodes.find((n) => n.id === nodeId && n.data.nodeType === node?.node_type)?.data.config);
  if (!node) {
    return (
      // side by side when the drawer is wide enough for both, whatever the window (the copilot chat narrows it)
      <div className="grid gap-4 p-4 @2xl/detail:grid-cols-2">
        {detail.payloads !== 'kept' ? <PayloadsNotKept run={detail} className="@2xl/detail:col-span-2" /> : null}
        {detail.inputs === null ? null : (
          <div>
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Execution inputs</h3>
            <NodeDataView value={detail.inputs} label="Execution inputs" />
          </div>
        )}
        {detail.payloads !== 'kept' ? null : (
          <div>
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Execution outputs</h3>
            <NodeDataView value={detail.outputs} label="Execution outputs" />
          </div>
        )}
        <p className="text-xs text-slate-500 @2xl/detail:col-span-2">Pick a node on the left (or on the canvas) to see its inputs, outputs, logs and error.</p>
      </div>
    );
  }
  const st = STATUS_LOOK[asRunStatus(node.status)];
  const tabs: { id: Tab; label: string; count?: number }[] = [
    { id: 'inputs', label: 'Inputs' },
    { id: 'outputs', label: 'Outputs' },
    { id: 'logs', label: 'Logs', count: node.logs.length },
    ...(node.error ? [{ id: 'error' as const, label: 'Error' }] : []),
  ];
  const picked = choice?.node === node.node_id ? choice.tab : null;
  const active: Tab = picked && (picked !== 'error' || node.error) ? picked : node.error ? 'error' : 'outputs';
  const setTab = (tab: Tab) => setChoice({ node: node.node_id, tab });
  return (
    <div className="flex h-full flex-col" data-testid="exec-node-detail">
      <div className="flex flex-wrap items-center gap-2 px-4 pt-2.5">
        <span className="font-mono text-xs font-semibold text-slate-800">{node.node_id}</span>
        <span className="text-[11px] text-slate-400">{node.node_type}</span>
        <span className={cn('rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase', st.pill)}>{st.label}</span>
        <span className="text-[11px] text-slate-500 tabular-nums">{formatDuration(node.duration_ms)}</span>
        {node.attempts > 1 ? <span className="text-[11px] text-amber-700">{node.attempts} attempts</span> : null}
        {node.reason ? <span className="text-[11px] text-slate-500">{SKIP_REASON_TEXT[node.reason]}</span> : null}
        {node.status === 'completed' && node.payloads === 'kept' ? <PinButton node={node} /> : null}
        {canRetryFrom(detail, node.node_type.endsWith('-trigger')) ? (
          <Button
            size="sm"
            variant="secondary"
            className={node.status === 'completed' ? '' : 'ml-auto'}
            icon={<RotateCcw className="size-3.5" aria-hidden />}
            onClick={() => onRetry(node)}
          >
            Retry from here
          </Button>
        ) : null}
      </div>
      <Tabs
        label="Node execution details"
        className="mt-2 border-slate-100 px-3"
        value={active}
        onChange={setTab}
        tabs={tabs.map((t) => ({ ...t, tone: t.id === 'error' ? ('danger' as const) : undefined }))}
      />
      <div role="tabpanel" className="min-h-0 flex-1 overflow-y-auto p-3">
        {(active === 'inputs' || active === 'outputs') && node.payloads !== 'kept' ? <PayloadsNotKept run={detail} /> : null}
        {active === 'inputs' && node.payloads === 'kept' ? (
          <NodeDataView key={`${node.node_id}:in`} value={node.inputs} nodeType={node.node_type} config={config} side="inputs" label="Node inputs" />
        ) : null}
        {active === 'outputs' && node.payloads === 'kept' ? (
          <NodeDataView key={`${node.node_id}:out`} value={node.outputs} nodeType={node.node_type} config={config} side="outputs" label="Node outputs" />
        ) : null}
        {active === 'logs' ? (
          node.logs.length === 0 ? (
            <p className="text-xs text-slate-400 italic">No log lines.</p>
          ) : (
            <ol className="space-y-0.5 font-mono text-[11px]">
              {node.logs.map((l, i) => (
                <li key={i} className="flex gap-2">
                  <span className="shrink-0 text-slate-400">{new Date(l.time).toLocaleTimeString()}</span>
                  <span className={cn('w-10 shrink-0 uppercase', LEVEL[l.level])}>{l.level}</span>
                  <span className="break-all text-slate-700">{l.message}</span>
                </li>
              ))}
            </ol>
          )
        ) : null}
        {active === 'error' && node.error ? (
          <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800">
            <p className="font-mono font-semibold">{node.error.code}</p>
            <p className="mt-1 whitespace-pre-wrap">{node.error.message}</p>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Pins a node's outputs of this run to the node (pinned data): test runs then use them instead of running it,
 * until unpinned in the node's panel. They are saved with the pipeline.
 */
function PinButton({ node }: { node: ExecutionNode }) {
  const { pinned, exists, updateNode } = useEditor((s) => {
    const n = s.nodes.find((x) => x.id === node.node_id);
    return { pinned: !!n?.data.pinned, exists: !!n, updateNode: s.updateNode };
  });
  if (!exists) return null;
  return (
    <Button
      size="sm"
      variant="secondary"
      className="ml-auto"
      icon={<Pin className="size-3.5" aria-hidden />}
      disabled={pinned}
      title="Test runs use these outputs instead of running the node (saved with the pipeline)"
      onClick={() => updateNode(node.node_id, { pinned: node.outputs as Record<string, unknown> }, 'pinned')}
    >
      {pinned ? 'Pinned' : 'Pin outputs'}
    </Button>
  );
}
