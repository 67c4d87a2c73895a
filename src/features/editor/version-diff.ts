import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';
import { canonical, connectionId, type Definition } from './definition';

export interface NodeChange {
  id: string;
  type: string;
  /** What changed: type, name, config, settings, position. */
  fields: string[];
  before: PipelineNode;
  after: PipelineNode;
}

export interface DefinitionDiff {
  nodes: { added: PipelineNode[]; removed: PipelineNode[]; changed: NodeChange[] };
  connections: { added: PipelineConnection[]; removed: PipelineConnection[] };
  /** Nothing but positions differ. */
  empty: boolean;
}

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
  const empty =
    added.length + removed.length + connections.added.length + connections.removed.length === 0 &&
    changed.every((c) => c.fields.length === 1 && c.fields[0] === 'position');
  return { nodes: { added, removed, changed }, connections, empty };
}

/** Config keys whose values differ (top level), for a one-line summary. */
export function changedKeys(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): string[] {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...keys].filter((k) => canonical(a?.[k] ?? null) !== canonical(b?.[k] ?? null)).sort();
}
