import type { PipelineConnection, PipelineNode, StickyNote } from '@/shared/pipeline';
import { canonical, connectionId, type Definition } from './definition';

export interface NodeChange {
  id: string;
  type: string;
  /** What changed: type, name, config, settings, position. */
  fields: string[];
  before: PipelineNode;
  after: PipelineNode;
}

export interface NoteChange {
  id: string;
  /** What changed: text, color, size, position. */
  fields: string[];
  before: StickyNote;
  after: StickyNote;
}

export interface DefinitionDiff {
  nodes: { added: PipelineNode[]; removed: PipelineNode[]; changed: NodeChange[] };
  connections: { added: PipelineConnection[]; removed: PipelineConnection[] };
  /** Sticky notes, matched by id (the engine never reads them, but people do). */
  notes: { added: StickyNote[]; removed: StickyNote[]; changed: NoteChange[] };
  /** Nothing but positions (and notes' sizes) differ. */
  empty: boolean;
}

/** Fields of a change that are only about where things sit on the canvas. */
const LAYOUT_ONLY = new Set(['position', 'size']);
export const onlyLayout = (c: { fields: string[] }) => c.fields.every((f) => LAYOUT_ONLY.has(f));

const FIELDS = ['type', 'name', 'config', 'settings'] as const;

/**
 * Structural diff of two definitions: nodes matched by id, connections by their endpoints (ids may
 * differ between tools), so a re-created identical connection is not a change.
 */
export function diffDefinitions(a: Definition, b: Definition): DefinitionDiff {
  const before = new Map(a.nodes.map((n) => [n.id, n]));
  const after = new Map(b.nodes.map((n) => [n.id, n]));
  const added = b.nodes.filter((n) => !before.has(n.id));
  const removed = a.nodes.filter((n) => !after.has(n.id));
  const changed: NodeChange[] = [];
  for (const n of b.nodes) {
    const old = before.get(n.id);
    if (!old) continue;
    const fields: string[] = FIELDS.filter((f) => canonical(old[f] ?? null) !== canonical(n[f] ?? null));
    if (old.position?.x !== n.position?.x || old.position?.y !== n.position?.y) fields.push('position');
    if (fields.length) changed.push({ id: n.id, type: n.type, fields, before: old, after: n });
  }
  const key = (c: PipelineConnection) => connectionId(c);
  const ca = new Set(a.connections.map(key));
  const cb = new Set(b.connections.map(key));
  const connections = {
    added: b.connections.filter((c) => !ca.has(key(c))),
    removed: a.connections.filter((c) => !cb.has(key(c))),
  };
  const notes = diffNotes(a.notes ?? [], b.notes ?? []);
  const empty =
    added.length + removed.length + connections.added.length + connections.removed.length + notes.added.length + notes.removed.length === 0 &&
    changed.every(onlyLayout) &&
    notes.changed.every(onlyLayout);
  return { nodes: { added, removed, changed }, connections, notes, empty };
}

function diffNotes(a: StickyNote[], b: StickyNote[]): DefinitionDiff['notes'] {
  const before = new Map(a.map((n) => [n.id, n]));
  const after = new Set(b.map((n) => n.id));
  const changed: NoteChange[] = [];
  for (const n of b) {
    const old = before.get(n.id);
    if (!old) continue;
    const fields: string[] = [];
    if ((old.text ?? '') !== (n.text ?? '')) fields.push('text');
    if ((old.color ?? 'yellow') !== (n.color ?? 'yellow')) fields.push('color');
    if (old.width !== n.width || old.height !== n.height) fields.push('size');
    if (old.position?.x !== n.position?.x || old.position?.y !== n.position?.y) fields.push('position');
    if (fields.length) changed.push({ id: n.id, fields, before: old, after: n });
  }
  return { added: b.filter((n) => !before.has(n.id)), removed: a.filter((n) => !after.has(n.id)), changed };
}

/** A note's first line of text, shortened, to name it in a list (its id says little). */
export function noteTitle(note: { text?: string }, max = 60): string {
  const line =
    (note.text ?? '')
      .split('\n')
      .map((l) => l.replace(/^[#>*\-\s]+/, '').trim())
      .find(Boolean) ?? '';
  if (!line) return '(empty note)';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Config keys whose values differ (top level), for a one-line summary. */
export function changedKeys(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): string[] {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...keys].filter((k) => canonical(a?.[k] ?? null) !== canonical(b?.[k] ?? null)).sort();
}
