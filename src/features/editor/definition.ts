import type { PipelineConnection, PipelineDefinition, PipelineNode, StickyNote } from '@/shared/pipeline';
import type { FlowEdge, FlowNode, NoteNode } from './types';

export type Definition = PipelineDefinition;

const NODE_KEYS = new Set(['id', 'type', 'name', 'config', 'position', 'settings', 'pinned', 'disabled']);
const CONNECTION_KEYS = new Set(['id', 'source', 'source_port', 'target', 'target_port']);
const NOTE_KEYS = new Set(['id', 'text', 'position', 'width', 'height', 'color']);

/** Sticky notes are React Flow nodes with this id prefix (":" is not allowed in node ids: never a clash). */
export const NOTE_PREFIX = 'note:';
export const isNote = (id: string) => id.startsWith(NOTE_PREFIX);
export const NOTE_SIZE = { width: 240, height: 160 } as const;

function rest(obj: Record<string, unknown>, keys: Set<string>): Record<string, unknown> | undefined {
  const out = Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.has(k)));
  return Object.keys(out).length ? out : undefined;
}

export function connectionId(c: { source: string; source_port: string; target: string; target_port: string }): string {
  return `${c.source}.${c.source_port}->${c.target}.${c.target_port}`;
}

export function toFlowNode(n: PipelineNode): FlowNode {
  return {
    id: n.id,
    type: 'pipeline',
    position: { x: n.position?.x ?? 0, y: n.position?.y ?? 0 },
    data: {
      nodeType: n.type,
      ...(n.name !== undefined && { name: n.name }),
      config: n.config ?? {},
      ...(n.settings !== undefined && { settings: n.settings }),
      ...(n.pinned !== undefined && { pinned: n.pinned }),
      ...(n.disabled && { disabled: true }),
      ...(rest(n, NODE_KEYS) && { extra: rest(n, NODE_KEYS) }),
    },
  };
}

export function toFlowEdge(c: PipelineConnection): FlowEdge {
  const extra = rest(c, CONNECTION_KEYS);
  return {
    id: c.id ?? connectionId(c),
    source: c.source,
    target: c.target,
    sourceHandle: c.source_port,
    targetHandle: c.target_port,
    ...(extra && { data: { extra } }),
  };
}

export function toNoteNode(n: StickyNote): NoteNode {
  const extra = rest(n, NOTE_KEYS);
  return {
    id: NOTE_PREFIX + n.id,
    type: 'note',
    position: { x: n.position?.x ?? 0, y: n.position?.y ?? 0 },
    width: n.width ?? NOTE_SIZE.width,
    height: n.height ?? NOTE_SIZE.height,
    // under the pipeline's nodes and connections
    zIndex: -1,
    data: { text: n.text ?? '', color: n.color ?? 'yellow', ...(extra && { extra }) },
  };
}

export function toStickyNote(n: NoteNode): StickyNote {
  return {
    ...n.data.extra,
    id: n.id.slice(NOTE_PREFIX.length),
    text: n.data.text,
    position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    width: Math.round(n.width ?? n.measured?.width ?? NOTE_SIZE.width),
    height: Math.round(n.height ?? n.measured?.height ?? NOTE_SIZE.height),
    color: n.data.color,
  };
}

export function toFlow(def: Definition): { nodes: FlowNode[]; edges: FlowEdge[]; notes: NoteNode[] } {
  return { nodes: def.nodes.map(toFlowNode), edges: def.connections.map(toFlowEdge), notes: (def.notes ?? []).map(toNoteNode) };
}

/** The definition the canvas shows, in the shape the API stores (positions rounded; `notes` only when there are some). */
export function toDefinition(nodes: FlowNode[], edges: FlowEdge[], notes: NoteNode[] = []): Definition {
  return {
    nodes: nodes.map((n) => ({
      ...n.data.extra,
      id: n.id,
      type: n.data.nodeType,
      ...(n.data.name ? { name: n.data.name } : {}),
      config: n.data.config,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      ...(n.data.settings && Object.keys(n.data.settings).length ? { settings: n.data.settings } : {}),
      ...(n.data.pinned ? { pinned: n.data.pinned } : {}),
      ...(n.data.disabled ? { disabled: true } : {}),
    })),
    connections: edges.map((e) => ({
      ...e.data?.extra,
      id: e.id,
      source: e.source,
      source_port: e.sourceHandle ?? '',
      target: e.target,
      target_port: e.targetHandle ?? '',
    })),
    ...(notes.length ? { notes: notes.map(toStickyNote) } : {}),
  };
}

/**
 * What a saved definition looks like on the canvas (connections get ids, nodes positions and a config),
 * as a key: comparing the canvas with it tells unsaved changes from the shape a REST client saved.
 */
export function savedKeyOf(def: Definition): string {
  const flow = toFlow(def);
  return canonical(toDefinition(flow.nodes, flow.edges, flow.notes));
}

/** JSON with sorted keys: two definitions that mean the same compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A readable id not yet taken: `jsonata-transform-1`, `jsonata-transform-2`, … */
export function uniqueNodeId(type: string, taken: Set<string>): string {
  const base = type.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 80) || 'node';
  for (let i = 1; ; i++) {
    const id = `${base}-${i}`;
    if (!taken.has(id)) return id;
  }
}

/** A note id not yet taken: `note-1`, `note-2`, … */
export function uniqueNoteId(notes: NoteNode[]): string {
  const taken = new Set(notes.map((n) => n.id));
  for (let i = 1; ; i++) if (!taken.has(`${NOTE_PREFIX}note-${i}`)) return `note-${i}`;
}

/** Default config from a JSON Schema's property defaults (what the server's zod defaults would give). */
export function defaultConfig(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    if (prop && typeof prop === 'object' && 'default' in prop) out[key] = structuredClone(prop.default);
  }
  return out;
}
