'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { NodeDataView } from '@/features/clinical-views/node-data-view';
import { appError, errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { NODE_LOOK } from './execution-look';
import { NodePanel, SectionTitle } from './node-panel';
import { PayloadsNotKept } from './payloads-note';
import { RunHeader } from './run-header';
import { Timeline } from './timeline';
import { isCarried } from './timeline-scale';
import { isLive, type ExecutionDetail } from './types';
import { useDefinitionOrder } from './use-definition-order';
import { usePipelineNames } from './use-pipeline-names';

const LEGEND = ['completed', 'failed', 'running', 'simulated', 'skipped'] as const;

/** /executions/[id]: one run, its per-node timeline, the picked node's data, and the run's inputs and outputs. */
export function RunDetailPage({ id }: { id: string }) {
  const run = api.executions.get.useQuery({ id }, { refetchInterval: (q) => (q.state.data && !isLive(q.state.data.status) ? false : 1000) });
  const { names } = usePipelineNames();

  if (run.isPending) return <Spinner label="Loading execution…" />;
  if (run.isError) {
    const notFound = appError(run.error)?.status === 404;
    return (
      <div className="mx-auto max-w-lg space-y-3">
        <Alert title={notFound ? 'Execution not found' : 'Could not load the execution'}>
          {notFound ? 'It does not exist, or it belongs to another organization.' : errorMessage(run.error)}
        </Alert>
        <div className="flex gap-2">
          {notFound ? null : (
            <Button variant="secondary" onClick={() => void run.refetch()}>
              Try again
            </Button>
          )}
          <Link href="/executions" className="inline-flex h-9 items-center px-2 text-sm font-medium text-teal-700 hover:underline">
            Back to executions
          </Link>
        </div>
      </div>
    );
  }
  return <RunDetail key={run.data.id} run={run.data} pipelineName={names.get(run.data.pipeline_id)} />;
}

/** The failed node, else the first node that ran in this execution. */
function defaultNode(run: ExecutionDetail, ranks: Map<string, number>): string | null {
  if (run.error?.node_id && run.nodes.some((n) => n.node_id === run.error?.node_id)) return run.error.node_id;
  const ran = run.nodes.filter((n) => n.started_at && !isCarried(n, run.started_at));
  ran.sort((a, b) => (a.started_at ?? '').localeCompare(b.started_at ?? '') || (ranks.get(a.node_id) ?? 0) - (ranks.get(b.node_id) ?? 0));
  return ran[0]?.node_id ?? run.nodes[0]?.node_id ?? null;
}

function RunDetail({ run, pipelineName }: { run: ExecutionDetail; pipelineName: string | undefined }) {
  const [picked, setPicked] = useState<string | null>(null);
  const live = isLive(run.status);
  const { nodes, ranks } = useDefinitionOrder(run);
  const selectedId = picked ?? defaultNode(run, ranks);
  const selected = nodes.find((n) => n.node_id === selectedId);

  function showNode(nodeId: string) {
    setPicked(nodeId);
    document.getElementById('run-timeline')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  return (
    <>
      <RunHeader run={run} pipelineName={pipelineName} onShowNode={showNode} />
      <Card className="mb-6 overflow-hidden">
        <div id="run-timeline" className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
          <div>
            <h2 className="text-sm font-semibold text-slate-900">Timeline</h2>
            <p className="text-xs text-slate-500">
              {nodes.length} node{nodes.length === 1 ? '' : 's'} · bars overlap where nodes ran concurrently · pick a row to see its data
              {live ? ' · updating every second' : ''}
            </p>
          </div>
          <ul className="flex flex-wrap gap-3 text-xs text-slate-500" aria-label="Legend">
            {LEGEND.map((s) => (
              <li key={s} className="flex items-center gap-1.5">
                <span className={`h-2 w-3 rounded-sm ${NODE_LOOK[s]!.dot}`} aria-hidden />
                {NODE_LOOK[s]!.label}
              </li>
            ))}
          </ul>
        </div>
        <Timeline nodes={nodes} startedAt={run.started_at} ranks={ranks} live={live} selected={selectedId} onSelect={setPicked} />
        {selected ? (
          <div className="border-t border-slate-200 bg-slate-50/40">
            <NodePanel execution={run} node={selected} />
          </div>
        ) : null}
      </Card>
      <Card className="p-4">
        <h2 className="mb-3 text-sm font-semibold text-slate-900">Execution data</h2>
        {run.payloads !== 'kept' && run.inputs === null ? (
          <PayloadsNotKept run={run} />
        ) : (
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="min-w-0">
              <SectionTitle>Inputs</SectionTitle>
              <NodeDataView value={run.inputs} label="Execution inputs" />
            </div>
            <div className="min-w-0">
              <SectionTitle>Outputs</SectionTitle>
              {run.payloads !== 'kept' ? (
                <PayloadsNotKept run={run} />
              ) : run.outputs === null && live ? (
                <p className="px-1 py-2 text-xs text-slate-400 italic">Not finished yet.</p>
              ) : (
                <NodeDataView value={run.outputs} label="Execution outputs" />
              )}
            </div>
          </div>
        )}
      </Card>
    </>
  );
}
