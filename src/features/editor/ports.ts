import { PORT_TYPES, portsFit, type PortType } from '@/shared/ports';
import type { CatalogEntry, FlowEdge, FlowNode, Port } from './types';

function asPortType(t: unknown): PortType {
  return (PORT_TYPES as readonly string[]).includes(t as string) ? (t as PortType) : 'any';
}

function fromEntry(ports: CatalogEntry['inputs']): Port[] {
  return ports.map((p) => ({ name: p.name, type: asPortType(p.type), optional: p.optional, description: p.description }));
}

/**
 * Stop-gap: the catalog lists no ports for a node type whose config has required fields (it derives
 * them from the default config, which does not parse). Every node's documentation has a "**Ports**"
 * list (`- in \`name\` (type)`, `- out \`name\` (type, optional)`), so read them from there.
 */
function portsFromDocs(doc: string | undefined): { inputs: Port[]; outputs: Port[] } {
  const out = { inputs: [] as Port[], outputs: [] as Port[] };
  for (const line of (doc ?? '').split('\n')) {
    const m = /^- (in|out) (.*)$/.exec(line.trim());
    if (!m) continue;
    const side = m[1] === 'in' ? out.inputs : out.outputs;
    for (const p of m[2]!.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`\s*\(([a-z0-9-]+)(, optional)?\)/g)) {
      if (!side.some((q) => q.name === p[1])) side.push({ name: p[1]!, type: asPortType(p[2]), ...(p[3] ? { optional: true } : {}) });
    }
  }
  return out;
}

/** Names of switch cases, whatever shape the config gives them (strings, {name|port|key|label}, or a map). */
function caseNames(cases: unknown): string[] {
  if (Array.isArray(cases)) {
    return cases
      .map((c) => {
        if (typeof c === 'string') return c;
        if (c && typeof c === 'object') {
          const o = c as Record<string, unknown>;
          const n = o.port ?? o.name ?? o.key ?? o.output ?? o.label;
          return typeof n === 'string' ? n : '';
        }
        return '';
      })
      .filter(Boolean);
  }
  if (cases && typeof cases === 'object') return Object.keys(cases);
  return [];
}

/**
 * The ports of a node for its current config. The catalog shows ports for the default config; the nodes
 * whose ports depend on config follow known rules (DESIGN.md §3): manual-trigger `fields` add outputs,
 * switch `cases` add outputs, merge `inputs` sets in1..inN.
 */
export function nodePorts(entry: CatalogEntry | undefined, config: Record<string, unknown>): { inputs: Port[]; outputs: Port[] } {
  if (!entry) return { inputs: [], outputs: [] };
  let inputs = fromEntry(entry.inputs);
  let outputs = fromEntry(entry.outputs);
  if (inputs.length === 0 && outputs.length === 0) ({ inputs, outputs } = portsFromDocs(entry.documentation));
  if (entry.id === 'manual-trigger') {
    const fields = config.fields && typeof config.fields === 'object' ? (config.fields as Record<string, unknown>) : {};
    const extra = Object.entries(fields).map(([name, type]) => ({ name, type: asPortType(type), description: `inputs.${name}` }));
    outputs = [...outputs.filter((p) => !(p.name in fields)), ...extra];
  } else if (entry.id === 'switch' && config.cases !== undefined) {
    const names = caseNames(config.cases);
    const type = outputs.find((p) => p.name !== 'default')?.type ?? outputs[0]?.type ?? 'any';
    const fallback = outputs.find((p) => p.name === 'default') ?? { name: 'default', type };
    outputs = [...names.filter((n) => n !== 'default').map((name) => ({ name, type })), fallback];
  } else if (entry.id === 'merge' && typeof config.inputs === 'number' && config.inputs >= 1) {
    const proto = inputs[0];
    const n = Math.min(Math.floor(config.inputs), 50);
    inputs = Array.from({ length: n }, (_, i) => ({ name: `in${i + 1}`, type: proto?.type ?? 'any', optional: proto?.optional }));
  }
  return { inputs, outputs };
}

export function portOf(node: FlowNode | undefined, catalog: Record<string, CatalogEntry>, side: 'inputs' | 'outputs', name: string | null | undefined): Port | undefined {
  if (!node || !name) return undefined;
  return nodePorts(catalog[node.data.nodeType], node.data.config)[side].find((p) => p.name === name);
}

/** Would `target` reach `source` already? Then source → target closes a cycle. */
function reaches(edges: FlowEdge[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of edges) if (e.source === id) stack.push(e.target);
  }
  return false;
}

export interface ConnectionLike {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/** Why a connection is refused, or null when it fits (types fit, input free, no self-loop or cycle). */
export function connectionProblem(
  c: ConnectionLike,
  nodes: FlowNode[],
  edges: FlowEdge[],
  catalog: Record<string, CatalogEntry>,
): string | null {
  if (c.source === c.target) return 'A node cannot feed itself.';
  const out = portOf(nodes.find((n) => n.id === c.source), catalog, 'outputs', c.sourceHandle);
  const inp = portOf(nodes.find((n) => n.id === c.target), catalog, 'inputs', c.targetHandle);
  if (!out || !inp) return 'Unknown port.';
  if (!portsFit(out.type, inp.type)) return `${out.type} does not fit an input of type ${inp.type}.`;
  if (edges.some((e) => e.target === c.target && e.targetHandle === c.targetHandle)) {
    return `Input "${inp.name}" already has a connection.`;
  }
  if (reaches(edges, c.target, c.source)) return 'This connection would make a cycle.';
  return null;
}
