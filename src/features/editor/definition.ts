import type { PipelineConnection, PipelineDefinition, PipelineNode } from '@/shared/pipeline';
import type { FlowEdge, FlowNode } from './types';

export type Definition = PipelineDefinition;

const NODE_KEYS = new Set(['id', 'type', 'name', 'config', 'position', 'settings', 'pinned', 'disabled']);
const CONNECTION_KEYS = new Set(['id', 'source', 'source_port', 'target', 'target_port']);

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

export function toFlow(def: Definition): { nodes: FlowNode[]; edges: FlowEdge[] } {
  return { nodes: def.nodes.map(toFlowNode), edges: def.connections.map(toFlowEdge) };
}

/** The definition the canvas shows, in the shape the API stores (positions rounded). */
export function toDefinition(nodes: FlowNode[], edges: FlowEdge[]): Definition {
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
  };
}

/**
 * What a saved definition looks like on the canvas (connections get ids, nodes positions and a config),
 * as a key: comparing the canvas with it tells unsaved changes from the shape a REST client saved.
 */
export function savedKeyOf(def: Definition): string {
  const flow = toFlow(def);
  return canonical(toDefinition(flow.nodes, flow.edges));
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

/** Default config from a JSON Schema's property defaults (what the server's zod defaults would give). */
export function defaultConfig(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    if (prop && typeof prop === 'object' && 'default' in prop) out[key] = structuredClone(prop.default);
  }
  return out;
}
