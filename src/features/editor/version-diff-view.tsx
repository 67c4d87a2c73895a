'use client';

import { ArrowRight, Minus, Pencil, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { JsonView } from '@/components/json-view';
import { changedKeys, diffDefinitions, noteTitle, onlyLayout } from './version-diff';
import type { Definition } from './definition';

function Row({ tone, icon, children }: { tone: 'add' | 'remove' | 'change'; icon: ReactNode; children: ReactNode }) {
  const tones = {
    add: 'border-emerald-200 bg-emerald-50 text-emerald-900',
    remove: 'border-red-200 bg-red-50 text-red-900',
    change: 'border-amber-200 bg-amber-50 text-amber-900',
  };
  return (
    <li className={`flex items-start gap-2 rounded-md border px-2.5 py-1.5 text-xs ${tones[tone]}`}>
      <span className="mt-px shrink-0">{icon}</span>
      <div className="min-w-0 flex-1">{children}</div>
    </li>
  );
}

/** Added, removed and changed nodes, connections and sticky notes between two definitions. */
export function VersionDiffView({ before, after }: { before: Definition; after: Definition }) {
  const d = diffDefinitions(before, after);
  const moved = d.nodes.changed.filter(onlyLayout);
  const changed = d.nodes.changed.filter((c) => !moved.includes(c));
  const notesMoved = d.notes.changed.filter(onlyLayout);
  if (d.empty) {
    const what = [moved.length ? `${moved.length} node(s)` : '', notesMoved.length ? `${notesMoved.length} note(s)` : ''].filter(Boolean).join(' and ');
    return <p className="rounded-md bg-slate-50 px-3 py-4 text-center text-sm text-slate-500">No differences{what ? ` but ${what} moved` : ''}.</p>;
  }
  return (
    <div className="space-y-4" data-testid="version-diff">
      <section>
        <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Nodes</h3>
        <ul className="space-y-1.5">
          {d.nodes.added.map((n) => (
            <Row key={`a-${n.id}`} tone="add" icon={<Plus className="size-3.5" aria-hidden />}>
              Added <span className="font-mono font-semibold">{n.id}</span> <span className="text-emerald-700">({n.type})</span>
            </Row>
          ))}
          {d.nodes.removed.map((n) => (
            <Row key={`r-${n.id}`} tone="remove" icon={<Minus className="size-3.5" aria-hidden />}>
              Removed <span className="font-mono font-semibold">{n.id}</span> <span className="text-red-700">({n.type})</span>
            </Row>
          ))}
          {changed.map((c) => (
            <Row key={`c-${c.id}`} tone="change" icon={<Pencil className="size-3.5" aria-hidden />}>
              <details>
                <summary className="cursor-pointer">
                  Changed <span className="font-mono font-semibold">{c.id}</span>: {c.fields.filter((f) => f !== 'position').join(', ')}
                  {c.fields.includes('config') ? <span className="text-amber-700"> ({changedKeys(c.before.config, c.after.config).join(', ')})</span> : null}
                </summary>
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  <JsonView value={{ name: c.before.name, type: c.before.type, config: c.before.config, settings: c.before.settings }} label="Before" />
                  <JsonView value={{ name: c.after.name, type: c.after.type, config: c.after.config, settings: c.after.settings }} label="After" />
                </div>
              </details>
            </Row>
          ))}
          {d.nodes.added.length + d.nodes.removed.length + changed.length === 0 ? <li className="text-xs text-slate-400">No node changes.</li> : null}
          {moved.length ? <li className="text-xs text-slate-500">{moved.length} node(s) only moved.</li> : null}
        </ul>
      </section>
      <section>
        <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Connections</h3>
        <ul className="space-y-1.5">
          {d.connections.added.map((c) => (
            <Row key={`ca-${c.source}.${c.source_port}-${c.target}.${c.target_port}`} tone="add" icon={<Plus className="size-3.5" aria-hidden />}>
              <Endpoints c={c} />
            </Row>
          ))}
          {d.connections.removed.map((c) => (
            <Row key={`cr-${c.source}.${c.source_port}-${c.target}.${c.target_port}`} tone="remove" icon={<Minus className="size-3.5" aria-hidden />}>
              <Endpoints c={c} />
            </Row>
          ))}
          {d.connections.added.length + d.connections.removed.length === 0 ? <li className="text-xs text-slate-400">No connection changes.</li> : null}
        </ul>
      </section>
      {before.notes?.length || after.notes?.length ? <NotesDiff notes={d.notes} /> : null}
    </div>
  );
}

/** Sticky notes added, removed, rewritten or recoloured; notes that only moved or were resized are counted. */
function NotesDiff({ notes }: { notes: ReturnType<typeof diffDefinitions>['notes'] }) {
  const moved = notes.changed.filter(onlyLayout);
  const changed = notes.changed.filter((c) => !moved.includes(c));
  return (
    <section data-testid="version-diff-notes">
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Sticky notes</h3>
      <ul className="space-y-1.5">
        {notes.added.map((n) => (
          <Row key={`na-${n.id}`} tone="add" icon={<Plus className="size-3.5" aria-hidden />}>
            Added note <span className="font-semibold">“{noteTitle(n)}”</span>
          </Row>
        ))}
        {notes.removed.map((n) => (
          <Row key={`nr-${n.id}`} tone="remove" icon={<Minus className="size-3.5" aria-hidden />}>
            Removed note <span className="font-semibold">“{noteTitle(n)}”</span>
          </Row>
        ))}
        {changed.map((c) => (
          <Row key={`nc-${c.id}`} tone="change" icon={<Pencil className="size-3.5" aria-hidden />}>
            <details>
              <summary className="cursor-pointer">
                Changed note <span className="font-semibold">“{noteTitle(c.after)}”</span>:{' '}
                {c.fields.filter((f) => f !== 'position' && f !== 'size').join(', ')}
              </summary>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                <JsonView value={{ text: c.before.text, color: c.before.color }} label="Before" />
                <JsonView value={{ text: c.after.text, color: c.after.color }} label="After" />
              </div>
            </details>
          </Row>
        ))}
        {notes.added.length + notes.removed.length + changed.length === 0 ? <li className="text-xs text-slate-400">No note changes.</li> : null}
        {moved.length ? <li className="text-xs text-slate-500">{moved.length} note(s) only moved or resized.</li> : null}
      </ul>
    </section>
  );
}

function Endpoints({ c }: { c: { source: string; source_port: string; target: string; target_port: string } }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1 font-mono">
      {c.source}.{c.source_port} <ArrowRight className="size-3" aria-hidden /> {c.target}.{c.target_port}
    </span>
  );
}
