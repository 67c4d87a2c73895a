'use client';

import { Handle, Position, useConnection, useStore, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { AlertCircle, AlertTriangle, Pin, Timer } from 'lucide-react';
import { memo, useEffect, useMemo } from 'react';
import { cn } from '@/components/ui/cn';
import { formatDuration } from '@/components/format';
import { lookOf, PORT_COLOR, STATUS_LOOK } from './node-look';
import { refusal } from './connection-fix';
import { nodePorts } from './ports';
import { useEditor, useEditorStoreApi } from './store-provider';
import type { FlowNode, Port } from './types';

/**
 * How much larger a node's name is drawn below 80 % zoom, so it stays readable (about 10 px on screen) when the
 * whole pipeline is fitted into view; in steps, so zooming re-renders nodes only now and then.
 */
function titleScale(s: { transform: [number, number, number] }): number {
  const zoom = s.transform[2];
  return zoom >= 0.8 ? 1 : Math.min(2.2, Math.round((0.8 / zoom) * 4) / 4);
}

const HANDLE = { width: 11, height: 11, border: '2px solid white', boxShadow: '0 0 0 1px rgb(203 213 225)' };

type RowPort = Port & { unknown?: boolean };

/**
 * A row of ports. While a connection is being dragged, a handle it cannot end on is dimmed and says why
 * (`refusedIn`/`refusedOut`: the reason, or null when it fits).
 */
function PortRow({ input, output, refusedIn, refusedOut }: { input?: RowPort; output?: RowPort; refusedIn?: string | null; refusedOut?: string | null }) {
  return (
    <div className="relative flex h-6 items-center justify-between gap-2 px-3 text-[11px] leading-none">
      {input ? (
        <>
          <Handle
            type="target"
            id={input.name}
            position={Position.Left}
            style={{ ...HANDLE, background: input.unknown ? '#ef4444' : PORT_COLOR[input.type], opacity: refusedIn ? 0.25 : 1 }}
            title={refusedIn ?? `${input.name}: ${input.type}${input.optional ? ' (optional)' : ''}`}
            data-refused={refusedIn ? 'true' : undefined}
          />
          <span className={cn('truncate text-slate-600', input.unknown && 'text-red-600 line-through', refusedIn && 'opacity-40')}>
            {input.name}
            {input.optional ? <span className="text-slate-400">?</span> : null}
          </span>
        </>
      ) : (
        <span />
      )}
      {output ? (
        <>
          <span className={cn('truncate text-right text-slate-600', output.unknown && 'text-red-600 line-through', refusedOut && 'opacity-40')}>
            {output.name}
          </span>
          <Handle
            type="source"
            id={output.name}
            position={Position.Right}
            style={{ ...HANDLE, background: output.unknown ? '#ef4444' : PORT_COLOR[output.type], opacity: refusedOut ? 0.25 : 1 }}
            title={refusedOut ?? `${output.name}: ${output.type}`}
            data-refused={refusedOut ? 'true' : undefined}
          />
        </>
      ) : null}
    </div>
  );
}

const NONE = { inputs: [] as (string | null)[], outputs: [] as (string | null)[] };

/**
 * While a connection is dragged from a port, why each of this node's ports on the other side could not
 * take it (null: it could). Re-renders only when a drag starts or ends, not on every mouse move.
 */
function useRefusals(id: string, inputs: RowPort[], outputs: RowPort[]) {
  const store = useEditorStoreApi();
  const from = useConnection((c) => (c.inProgress ? `${c.fromHandle.type}\n${c.fromNode.id}\n${c.fromHandle.id ?? ''}` : ''));
  return useMemo(() => {
    if (!from) return NONE;
    const [side, node, handle] = from.split('\n') as ['source' | 'target', string, string];
    const { nodes, edges, catalog } = store.getState();
    if (side === 'source') {
      return {
        inputs: inputs.map((p) => refusal({ source: node, sourceHandle: handle, target: id, targetHandle: p.name }, nodes, edges, catalog)),
        outputs: [],
      };
    }
    return {
      inputs: [],
      outputs: outputs.map((p) => refusal({ source: id, sourceHandle: p.name, target: node, targetHandle: handle }, nodes, edges, catalog)),
    };
  }, [from, id, inputs, outputs, store]);
}

function PipelineNodeView({ id, data, selected }: NodeProps<FlowNode>) {
  const { entry, errors, warnings, run, current, usedInputs, usedOutputs } = useEditor((s) => ({
    entry: s.catalog[data.nodeType],
    errors: s.errors[id],
    warnings: s.warnings[id],
    run: s.run[id],
    current: s.currentNode === id,
    // joined to strings: a fresh array per call would never compare equal and re-render forever
    usedInputs: s.edges
      .filter((e) => e.target === id)
      .map((e) => e.targetHandle ?? '')
      .join('\n'),
    usedOutputs: s.edges
      .filter((e) => e.source === id)
      .map((e) => e.sourceHandle ?? '')
      .join('\n'),
  }));
  const ports = useMemo(() => nodePorts(entry, data.config), [entry, data.config]);
  // ports a connection names but the node does not have (yet): keep a handle so the edge stays visible
  const inputs = useMemo(() => {
    const known = new Set(ports.inputs.map((p) => p.name));
    const missing = [...new Set(usedInputs.split('\n'))].filter((n) => n && !known.has(n));
    return [...ports.inputs, ...missing.map((name) => ({ name, type: 'any' as const, unknown: true }))];
  }, [ports.inputs, usedInputs]);
  const outputs = useMemo(() => {
    const known = new Set(ports.outputs.map((p) => p.name));
    const missing = [...new Set(usedOutputs.split('\n'))].filter((n) => n && !known.has(n));
    return [...ports.outputs, ...missing.map((name) => ({ name, type: 'any' as const, unknown: true }))];
  }, [ports.outputs, usedOutputs]);

  const refusals = useRefusals(id, inputs, outputs);

  const updateInternals = useUpdateNodeInternals();
  const portKey = [...inputs.map((p) => p.name), '|', ...outputs.map((p) => p.name)].join(',');
  useEffect(() => updateInternals(id), [id, portKey, updateInternals]);

  const look = lookOf(entry?.category, entry?.trigger);
  const Icon = look.icon;
  const status = run?.status;
  const problems = errors ?? [];
  // a disabled node says so with its badge, whose title carries the validator's warning
  const disabledNote = warnings?.find((w) => w.code === 'NODE_DISABLED');
  const notes = (warnings ?? []).filter((w) => w !== disabledNote);
  const rows = Math.max(inputs.length, outputs.length);
  const scale = useStore(titleScale);

  return (
    <div
      data-testid={`node-${id}`}
      data-node-id={id}
      data-status={status ?? 'idle'}
      data-invalid={problems.length ? 'true' : undefined}
      data-current={current ? 'true' : undefined}
      data-disabled={data.disabled ? 'true' : undefined}
      className={cn(
        'group relative w-60 rounded-lg border bg-white shadow-sm transition-shadow',
        data.disabled && 'border-dashed bg-slate-50',
        selected ? 'border-teal-600 shadow-md ring-2 ring-teal-600/30' : 'border-slate-300 hover:shadow-md',
        problems.length > 0 && !status && 'border-red-400 ring-2 ring-red-400/70',
        status && cn('ring-2', STATUS_LOOK[status].ring),
        current && 'ring-4 ring-sky-400 ring-offset-2',
        data.proposed && 'border-2 border-dashed border-violet-500 bg-violet-50/40 shadow-md ring-0',
        data.copilot === 'changed' && 'border-amber-500 ring-2 ring-amber-400/70',
        data.copilot === 'removed' && 'border-dashed border-red-400 opacity-50',
        data.copilot === 'rewired' && 'border-sky-500 ring-2 ring-sky-400/60',
      )}
    >
      {data.proposed ? (
        <span
          className="absolute -top-2.5 right-2 rounded-full bg-violet-600 px-1.5 py-0.5 text-[10px] font-semibold tracking-wide text-white uppercase shadow-sm"
          aria-label="proposed"
        >
          Proposed
        </span>
      ) : data.copilot ? (
        <span
          className={cn(
            'absolute -top-2.5 right-2 rounded-full px-1.5 py-0.5 text-[10px] font-semibold tracking-wide text-white uppercase shadow-sm',
            data.copilot === 'changed' ? 'bg-amber-500' : data.copilot === 'rewired' ? 'bg-sky-600' : 'bg-red-500',
          )}
          aria-label={`${data.copilot} by the proposal`}
        >
          {data.copilot === 'changed' ? 'Changed' : data.copilot === 'rewired' ? 'Rewired' : 'Removed'}
        </span>
      ) : null}
      <div className={cn('absolute inset-x-0 top-0 h-1 rounded-t-lg', data.disabled ? 'bg-slate-300' : look.accent)} aria-hidden />
      <div className="flex items-start gap-2.5 px-3 pt-3 pb-2">
        <span className={cn('mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-md', look.tile, data.disabled && 'opacity-50 grayscale')}>
          <Icon className="size-4" aria-hidden />
        </span>
        <div className={cn('min-w-0 flex-1', data.disabled && 'opacity-60')}>
          <p
            className={cn(
              'font-semibold text-slate-900',
              scale > 1 ? 'line-clamp-2 leading-tight break-words' : 'truncate text-[13px]',
              data.disabled && 'line-through decoration-slate-400',
            )}
            style={scale > 1 ? { fontSize: `${13 * scale}px` } : undefined}
            title={data.name || entry?.name}
          >
            {data.name || entry?.name || data.nodeType}
          </p>
          <p className={cn('truncate font-mono text-[10px] text-slate-500', scale > 1 && 'hidden')} title={`${id} · ${data.nodeType}`}>
            {data.proposed ? id.slice(id.indexOf(':') + 1) : id}
          </p>
        </div>
        {data.disabled ? (
          <span
            className="shrink-0 rounded-full bg-slate-200 px-1.5 py-0.5 text-[10px] font-semibold tracking-wide text-slate-600 uppercase"
            title={disabledNote?.message ?? 'Disabled: runs pass its input through instead of running it'}
            aria-label="disabled"
          >
            Disabled
          </span>
        ) : null}
        {data.pinned ? (
          <span className="text-violet-600" title="Pinned outputs: test runs use them instead of running this node" aria-label="pinned">
            <Pin className="size-4" aria-hidden />
          </span>
        ) : null}
        {problems.length ? (
          <span className="text-red-600" title={problems.map((p) => p.message).join('\n')} aria-label={`${problems.length} problem(s)`}>
            <AlertCircle className="size-4" aria-hidden />
          </span>
        ) : notes.length ? (
          <span className="text-amber-500" title={notes.map((p) => p.message).join('\n')} aria-label="warning">
            <AlertTriangle className="size-4" aria-hidden />
          </span>
        ) : null}
      </div>
      {status ? (
        <div className="flex items-center justify-between px-3 pb-2">
          <span className={cn('rounded-full px-2 py-0.5 text-[10px] font-semibold uppercase tracking-wide', STATUS_LOOK[status].pill)}>
            {STATUS_LOOK[status].label}
          </span>
          {run?.duration_ms !== undefined && run.duration_ms !== null ? (
            <span className="inline-flex items-center gap-1 text-[10px] text-slate-500 tabular-nums">
              <Timer className="size-3" aria-hidden />
              {formatDuration(run.duration_ms)}
            </span>
          ) : null}
        </div>
      ) : null}
      {rows > 0 ? (
        <div className={cn('border-t border-slate-100 py-1.5', data.disabled && 'opacity-60')}>
          {Array.from({ length: rows }, (_, i) => (
            <PortRow key={i} input={inputs[i]} output={outputs[i]} refusedIn={refusals.inputs[i]} refusedOut={refusals.outputs[i]} />
          ))}
        </div>
      ) : null}
      {problems.length ? (
        <>
          <p className="truncate rounded-b-lg border-t border-red-100 bg-red-50 px-3 py-1.5 text-[11px] text-red-700" data-testid="node-error">
            {problems[0]!.message}
            {problems.length > 1 ? ` (+${problems.length - 1})` : ''}
          </p>
          <div
            role="tooltip"
            className={cn(
              'pointer-events-none absolute top-full left-0 z-10 mt-1 hidden w-72 space-y-1',
              'rounded-md bg-slate-900 px-3 py-2 text-[11px] text-white shadow-lg group-hover:block',
            )}
          >
            {problems.map((p, i) => (
              <p key={i}>{p.message}</p>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

export const PipelineNode = memo(PipelineNodeView);

/** Module scope: a new object on each render would make React Flow remount every node. */
export const nodeTypes = { pipeline: PipelineNode };
