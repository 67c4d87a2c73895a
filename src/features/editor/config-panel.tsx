'use client';

import { useReactFlow } from '@xyflow/react';
import { BookOpen, ChevronDown, MousePointer2, Trash2 } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { canonical } from './definition';
import { lookOf } from './node-look';
import { Markdown } from './markdown';
import { NodeActions } from './node-actions';
import { NodeSettingsForm } from './node-settings';
import { nodePorts } from './ports';
import { ExpressionInputContext, useNodeInput } from './expression-input';
import { ExpressionPreview, expressionField } from './expression-preview';
import { SchemaForm } from './schema-form';
import { TriggerInfo, triggerInfoKind } from './trigger-info';
import { useEditor } from './store-provider';
import type { FlowNode } from './types';

function Section({ title, children, defaultOpen = true, icon }: { title: string; children: ReactNode; defaultOpen?: boolean; icon?: ReactNode }) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <section className="border-b border-slate-100">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-2 px-4 py-2.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase hover:bg-slate-50"
      >
        {icon}
        <span className="flex-1">{title}</span>
        <ChevronDown className={cn('size-4 transition-transform', !open && '-rotate-90')} aria-hidden />
      </button>
      {open ? (
        <div id={id} className="px-4 pt-1 pb-4">
          {children}
        </div>
      ) : null}
    </section>
  );
}

/** The selected node: name, config form from its JSON Schema, run settings, ports and documentation. */
export function ConfigPanel() {
  const selected = useEditor((s) => s.nodes.filter((n) => n.selected));
  if (selected.length === 0) {
    return (
      <div className="flex h-full flex-col items-center justify-center px-6 text-center">
        <MousePointer2 className="mb-2 size-6 text-slate-300" aria-hidden />
        <p className="text-sm font-medium text-slate-700">No node selected</p>
        <p className="mt-1 text-xs text-slate-500">Click a node on the canvas to configure it. Shift-drag selects several.</p>
      </div>
    );
  }
  if (selected.length > 1) {
    return (
      <div className="px-4 py-6 text-sm text-slate-600">
        <p className="font-medium text-slate-800">{selected.length} nodes selected</p>
        <p className="mt-1 text-xs text-slate-500">Ctrl+C copies them, Delete removes them, dragging moves them together.</p>
      </div>
    );
  }
  return <NodeConfig key={selected[0]!.id} node={selected[0]!} />;
}

function NodeConfig({ node }: { node: FlowNode }) {
  const { entry, errors, updateNode } = useEditor((s) => ({
    entry: s.catalog[node.data.nodeType],
    errors: s.errors[node.id],
    updateNode: s.updateNode,
  }));
  const flow = useReactFlow();
  const nameId = useId();
  const look = lookOf(entry?.category, entry?.trigger);
  const Icon = look.icon;
  const ports = nodePorts(entry, node.data.config);
  const sample = useNodeInput(node, entry);

  return (
    <div className="flex h-full flex-col" aria-label="Node configuration" role="region">
      <header className="flex items-start gap-3 border-b border-slate-200 px-4 py-3">
        <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-md', look.tile)}>
          <Icon className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold text-slate-900">{entry?.name ?? node.data.nodeType}</p>
          <p className="truncate font-mono text-[11px] text-slate-500">{node.id}</p>
        </div>
        <Button
          variant="quiet-danger"
          size="icon"
          aria-label="Delete node"
          title="Delete node (Del)"
          onClick={() => void flow.deleteElements({ nodes: [{ id: node.id }] })}
        >
          <Trash2 className="size-4" aria-hidden />
        </Button>
      </header>
      <NodeActions node={node} />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {entry ? null : <p className="m-4 rounded-md bg-red-50 px-3 py-2 text-xs text-red-700">The catalog has no node type “{node.data.nodeType}”.</p>}
        {errors?.length ? (
          <ul className="m-4 mb-0 space-y-1 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-700" aria-label="Problems">
            {errors.map((e, i) => (
              <li key={i}>{e.message}</li>
            ))}
          </ul>
        ) : null}
        <div className="space-y-1 px-4 pt-4 pb-3">
          <label htmlFor={nameId} className="block text-[13px] font-medium text-slate-700">
            Name
          </label>
          <input
            id={nameId}
            value={node.data.name ?? ''}
            placeholder={entry?.name}
            maxLength={200}
            onChange={(e) => updateNode(node.id, { name: e.target.value || undefined }, 'name')}
            className={cn(
              'block w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-[13px] shadow-sm',
              'placeholder:text-slate-400 focus:border-teal-600 focus:ring-2 focus:ring-teal-600/20 focus:outline-none',
            )}
          />
        </div>
        <Section title="Configuration">
          {entry ? (
            <ExpressionInputContext value={sample}>
              <SchemaForm
                idPrefix={`cfg-${node.id}`}
                schema={entry.config_schema}
                value={node.data.config}
                onChange={(config, field) => {
                  if (canonical(config) !== canonical(node.data.config)) updateNode(node.id, { config }, `config:${field ?? ''}`);
                }}
              />
            </ExpressionInputContext>
          ) : null}
        </Section>
        {entry && expressionField(entry) ? (
          <Section title="Preview">
            <ExpressionPreview node={node} field={expressionField(entry)!} sample={sample} />
          </Section>
        ) : null}
        {triggerInfoKind(node.data.nodeType) ? (
          <Section title={triggerInfoKind(node.data.nodeType) === 'webhook' ? 'Webhook' : 'Schedule'}>
            <TriggerInfo nodeType={node.data.nodeType} config={node.data.config} />
          </Section>
        ) : null}
        {node.data.pinned ? (
          <Section title="Pinned outputs">
            <p className="mb-2 text-xs text-slate-600">
              Test runs use these outputs instead of running this node; real runs always run it. They are saved with the pipeline.
            </p>
            <pre aria-label="Pinned outputs" className="mb-2 max-h-40 overflow-auto rounded-md bg-slate-900 px-2.5 py-2 font-mono text-[11px] text-slate-100">
              {JSON.stringify(node.data.pinned, null, 2).slice(0, 4000)}
            </pre>
            <Button size="sm" variant="secondary" onClick={() => updateNode(node.id, { pinned: undefined }, 'pinned')}>
              Unpin
            </Button>
          </Section>
        ) : null}
        <Section title="Settings" defaultOpen={false}>
          <NodeSettingsForm value={node.data.settings} onChange={(settings, field) => updateNode(node.id, { settings }, `settings:${field}`)} />
        </Section>
        <Section title="Ports" defaultOpen={false}>
          <dl className="space-y-1 text-xs">
            {[...ports.inputs.map((p) => ({ ...p, dir: 'in' })), ...ports.outputs.map((p) => ({ ...p, dir: 'out' }))].map((p) => (
              <div key={`${p.dir}:${p.name}`} className="flex items-center justify-between gap-2">
                <dt className="truncate font-mono text-slate-700">
                  <span className="mr-1.5 text-slate-400">{p.dir === 'in' ? '→' : '←'}</span>
                  {p.name}
                </dt>
                <dd className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[10px] text-slate-600">{p.type}</dd>
              </div>
            ))}
          </dl>
        </Section>
        {entry?.documentation || entry?.description ? (
          <Section title="Documentation" icon={<BookOpen className="size-3.5" aria-hidden />}>
            <p className="mb-2 text-[13px] text-slate-700">{entry.description}</p>
            {entry.documentation ? <Markdown source={entry.documentation} /> : null}
          </Section>
        ) : null}
      </div>
    </div>
  );
}
