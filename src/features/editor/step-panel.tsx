'use client';

import { Bug, CheckCircle2, CircleStop, FastForward, Play, X, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { api } from '@/trpc/react';
import { useEditorActions } from './actions-context';
import { JsonEditor, parseJsonObject, pretty } from './json-editor';
import { JsonView } from '@/components/json-view';
import { STATUS_LOOK } from './node-look';
import { nodePorts } from './ports';
import { asRunStatus } from './run-status';
import { useEditor } from './store-provider';
import { useDirty } from './use-editor-effects';
import type { StepState } from './types';

/** The step debugger: one node at a time, with the option to set a node's outputs by hand. */
export function StepPanel() {
  const { step, runInputs, setRunInputs } = useEditor((s) => ({ step: s.step, runInputs: s.runInputs, setRunInputs: s.setRunInputs }));
  const { runner } = useEditorActions();
  const dirty = useDirty();
  const parsed = parseJsonObject(runInputs);

  if (!step) {
    return (
      <div className="space-y-4 p-4">
        <div className="flex gap-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-sky-100 text-sky-700">
            <Bug className="size-4" aria-hidden />
          </span>
          <p className="text-[13px] text-slate-600">
            Step through a test run one node at a time. At each node, run it or give it the outputs you want, then see what the next node receives.
          </p>
        </div>
        <div className="space-y-1.5">
          <p className="text-[13px] font-medium text-slate-700">Inputs</p>
          <JsonEditor label="Step inputs" value={runInputs} onChange={setRunInputs} height="140px" />
          {'error' in parsed ? <Alert>{parsed.error}</Alert> : null}
        </div>
        <Button
          className="w-full justify-center"
          icon={<Play className="size-4" aria-hidden />}
          loading={runner.stepping}
          disabled={'error' in parsed}
          onClick={() => 'value' in parsed && void runner.startStep(parsed.value)}
        >
          {dirty ? 'Save & start stepping' : 'Start stepping'}
        </Button>
      </div>
    );
  }
  return <ActiveStep step={step} />;
}

function ActiveStep({ step }: { step: StepState }) {
  const { runner } = useEditorActions();
  const detail = api.executions.get.useQuery({ id: step.execution_id }).data;
  const { edges, node, catalog } = useEditor((s) => ({ edges: s.edges, node: s.nodes.find((n) => n.id === step.current_node), catalog: s.catalog }));
  const waiting = step.status === 'waiting' && !!step.current_node;

  // what the current node receives: the outputs of the nodes feeding it
  const inputs: Record<string, unknown> = {};
  for (const e of edges.filter((e) => e.target === step.current_node)) {
    const from = detail?.nodes.find((n) => n.node_id === e.source);
    if (from?.outputs && e.sourceHandle && e.targetHandle && e.sourceHandle in from.outputs) inputs[e.targetHandle] = from.outputs[e.sourceHandle];
  }
  const outputPorts = node ? nodePorts(catalog[node.data.nodeType], node.data.config).outputs : [];
  const finished = step.finished_node;

  return (
    <div className="space-y-4 p-4" data-testid="step-panel">
      <div
        className={cn(
          'flex items-center gap-2.5 rounded-md px-3 py-2 ring-1',
          waiting ? 'bg-sky-50 ring-sky-200' : step.status === 'completed' ? 'bg-emerald-50 ring-emerald-200' : 'bg-red-50 ring-red-200',
        )}
      >
        {waiting ? (
          <span className="size-2 shrink-0 animate-pulse rounded-full bg-sky-500" aria-hidden />
        ) : step.status === 'completed' ? (
          <CheckCircle2 className="size-4 shrink-0 text-emerald-600" aria-hidden />
        ) : (
          <XCircle className="size-4 shrink-0 text-red-600" aria-hidden />
        )}
        <div className="min-w-0 flex-1">
          {waiting ? (
            <>
              <p className="text-[11px] font-medium text-sky-700">Paused before</p>
              <p className="truncate font-mono text-[13px] font-semibold text-slate-900">{step.current_node}</p>
            </>
          ) : (
            <p className={cn('text-sm font-medium', step.status === 'completed' ? 'text-emerald-800' : 'text-red-800')}>
              {step.status === 'completed' ? 'Step-through completed' : 'Step-through failed'}
            </p>
          )}
        </div>
        <Button
          variant="ghost"
          size="sm"
          icon={waiting ? <CircleStop className="size-3.5" aria-hidden /> : <X className="size-3.5" aria-hidden />}
          onClick={runner.stopStep}
        >
          {waiting ? 'Stop' : 'Close'}
        </Button>
      </div>
      {step.error && !waiting ? <Alert>{step.error.message}</Alert> : null}
      {finished ? (
        <section className="space-y-1.5 rounded-md border border-slate-200 p-3">
          <div className="flex items-center gap-2 text-xs">
            <span className="font-medium text-slate-500">Last step</span>
            <span className="font-mono text-slate-800">{finished.node_id}</span>
            <span className={cn('ml-auto rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase', STATUS_LOOK[asRunStatus(finished.status)].pill)}>
              {finished.status}
            </span>
          </div>
          {finished.error ? <p className="text-xs text-red-700">{finished.error.message}</p> : <JsonView value={finished.outputs} label="Last step outputs" />}
        </section>
      ) : null}
      {waiting ? (
        <>
          <section className="space-y-1.5">
            <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Inputs of {step.current_node}</h3>
            <JsonView value={inputs} label="Current node inputs" />
          </section>
          <OutputsEditor key={step.current_node} ports={outputPorts.map((p) => p.name)} />
        </>
      ) : null}
    </div>
  );
}

function OutputsEditor({ ports }: { ports: string[] }) {
  const { runner } = useEditorActions();
  const [text, setText] = useState(() => pretty(Object.fromEntries(ports.map((p) => [p, null]))));
  const parsed = parseJsonObject(text);
  return (
    <section className="space-y-2">
      <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Outputs</h3>
      <p className="text-xs text-slate-500">Run the node for real, or edit these outputs and advance with them (like pinned data).</p>
      <JsonEditor label="Node outputs" value={text} onChange={setText} height="150px" />
      {'error' in parsed ? <Alert>{parsed.error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" icon={<Play className="size-3.5" aria-hidden />} loading={runner.stepping} onClick={() => void runner.advance()}>
          Run node
        </Button>
        <Button
          size="sm"
          variant="secondary"
          icon={<FastForward className="size-3.5" aria-hidden />}
          disabled={runner.stepping || 'error' in parsed}
          onClick={() => 'value' in parsed && void runner.advance(parsed.value)}
        >
          Advance with these outputs
        </Button>
      </div>
    </section>
  );
}
