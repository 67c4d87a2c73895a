'use client';

import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Markdown } from '@/features/editor/markdown';
import { lookOf, PORT_COLOR } from '@/features/editor/node-look';
import type { CatalogEntry, Category } from '@/features/editor/types';
import type { PortType } from '@/shared/ports';

export type { CatalogEntry };

type Field = { type?: string | string[]; enum?: unknown[]; default?: unknown; description?: string; title?: string };

const SIDE_EFFECT: Record<CatalogEntry['side_effect'], { label: string; tone: 'slate' | 'teal' | 'amber' }> = {
  none: { label: 'No side effect', tone: 'slate' },
  read: { label: 'Reads outside systems', tone: 'teal' },
  write: { label: 'Writes to outside systems (simulated in test mode)', tone: 'amber' },
};

function PortType({ type }: { type: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 font-mono text-xs text-slate-700">
      <span className="size-2 rounded-full" style={{ background: PORT_COLOR[type as PortType] ?? '#94a3b8' }} aria-hidden />
      {type}
    </span>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold text-slate-800">{title}</h3>
      {children}
    </section>
  );
}

function Ports({ ports, none }: { ports: CatalogEntry['inputs']; none: string }) {
  if (ports.length === 0) return <p className="text-sm text-slate-500">{none}</p>;
  return (
    <ul className="space-y-1.5">
      {ports.map((p) => (
        <li key={p.name} className="text-sm text-slate-600">
          <span className="font-mono text-slate-900">{p.name}</span> <PortType type={p.type} />
          {p.optional ? <span className="ml-1 text-xs text-slate-400">optional</span> : null}
          {p.description ? <span className="block text-xs text-slate-500">{p.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The documentation's own prose: the Ports, Config, Example and Errors sections the catalog appends to it
 * (src/engine/node-docs.ts) are shown above as structured parts.
 */
function prose(documentation: string): string {
  return documentation.split('\n\n**Ports**\n')[0] ?? documentation;
}

function typeOf(f: Field): string {
  if (f.enum) return f.enum.map((v) => JSON.stringify(v)).join(' | ');
  return Array.isArray(f.type) ? f.type.join(' | ') : (f.type ?? 'value');
}

/** A node type in full: what it does, ports, configuration fields with defaults, errors, example and documentation. */
export function NodeDetail({ entry }: { entry: CatalogEntry }) {
  const look = lookOf(entry.category as Category, entry.trigger);
  const Icon = look.icon;
  const properties = Object.entries(((entry.config_schema as { properties?: Record<string, Field> }).properties ?? {}) as Record<string, Field>);
  const effect = SIDE_EFFECT[entry.side_effect];
  return (
    <Card className="min-w-0 space-y-6 p-6">
      <header className="flex items-start gap-3">
        <span className={cn('grid size-10 shrink-0 place-items-center rounded-lg', look.tile)}>
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 space-y-1.5">
          <h2 className="text-lg font-semibold text-slate-900">{entry.name}</h2>
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <code className="font-mono">{entry.id}</code>
            <span>v{entry.version}</span>
            <Badge>{look.label}</Badge>
            {entry.trigger ? <Badge tone="teal">Trigger</Badge> : null}
            <Badge tone={effect.tone}>{effect.label}</Badge>
          </div>
          <p className="text-sm text-slate-600">{entry.description}</p>
        </div>
      </header>
      <div className="grid gap-6 md:grid-cols-2">
        <Section title="Inputs">
          <Ports ports={entry.inputs} none={entry.trigger ? 'None: a trigger starts the pipeline.' : 'None.'} />
        </Section>
        <Section title="Outputs">
          <Ports ports={entry.outputs} none="None: the end of a branch." />
        </Section>
      </div>
      <Section title="Configuration">
        {properties.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing to configure.</p>
        ) : (
          <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {properties.map(([name, f]) => (
              <div key={name} className="grid gap-1 px-3 py-2 text-sm sm:grid-cols-[12rem_minmax(0,1fr)]">
                <dt>
                  <span className="font-mono text-slate-900">{name}</span>
                  <span className="block text-xs text-slate-500">{typeOf(f)}</span>
                </dt>
                <dd className="text-slate-600">
                  {f.description ?? f.title ?? ''}
                  {f.default !== undefined ? <span className="block font-mono text-xs text-slate-500">default {JSON.stringify(f.default)}</span> : null}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Section>
      {entry.errors.length > 0 ? (
        <Section title="Errors a run can fail with">
          <ul className="space-y-1 text-sm text-slate-600">
            {entry.errors.map((e) => (
              <li key={e.code}>
                <code className="font-mono text-xs text-red-700">{e.code}</code> {e.description}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section title="Example configuration">
        <pre className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">{JSON.stringify(entry.example, null, 2)}</pre>
      </Section>
      <Section title="Documentation">
        <Markdown source={prose(entry.documentation)} />
      </Section>
    </Card>
  );
}
