import { portsOf } from '@/engine/node-descriptor';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { portsFit } from '@/shared/ports';
import type { CatalogEntry, FlowEdge, FlowNode, Port } from './types';

/**
 * The ports of a node for its current config, from the node type's descriptor (the catalog, the
 * validator and the engine use the same one), also while the config does not parse yet.
 */
export function nodePorts(entry: CatalogEntry | undefined, config: Record<string, unknown>): { inputs: Port[]; outputs: Port[] } {
  if (!entry) return { inputs: [], outputs: [] };
  const descriptor = getNodeDescriptor(entry.id);
  return descriptor ? portsOf(descriptor, config) : { inputs: entry.inputs as Port[], outputs: entry.outputs as Port[] };
}

export function portOf(
  node: FlowNode | undefined,
  catalog: Record<string, CatalogEntry>,
  side: 'inputs' | 'outputs',
  name: string | null | undefined,
): Port | undefined {
  if (!node || !name) return undefined;
  return nodePorts(catalog[node.data.nodeType], node.data.config)[side].find((p) => p.name === name);
}

/** A port's type in words, for messages. */
const WORDS: Record<string, string> = {
  'trigger-event': 'the whole inputs object',
  text: 'text',
  json: 'JSON',
  'hl7v2-message': 'a parsed HL7 v2 message',
  'fhir-resource': 'a FHIR resource',
  'fhir-bundle': 'a FHIR Bundle',
  'x12-interchange': 'a parsed X12 interchange',
  'error-event': 'a failed production run (error pipelines)',
  any: 'any value',
};

export function typeInWords(type: string): string {
  return WORDS[type] ?? type;
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
export function connectionProblem(c: ConnectionLike, nodes: FlowNode[], edges: FlowEdge[], catalog: Record<string, CatalogEntry>): string | null {
  if (c.source === c.target) return 'A node cannot feed itself: connect it to the next node instead.';
  const out = portOf(
    nodes.find((n) => n.id === c.source),
    catalog,
    'outputs',
    c.sourceHandle,
  );
  const inp = portOf(
    nodes.find((n) => n.id === c.target),
    catalog,
    'inputs',
    c.targetHandle,
  );
  if (!out || !inp) return 'Unknown port.';
  if (!portsFit(out.type, inp.type)) {
    return `"${out.name}" gives ${typeInWords(out.type)} (${out.type}), but input "${inp.name}" takes ${typeInWords(inp.type)} (${inp.type}).`;
  }
  if (edges.some((e) => e.target === c.target && e.targetHandle === c.targetHandle)) {
    return `Input "${inp.name}" already has a connection: delete that one first, or join both with a merge node.`;
  }
  if (reaches(edges, c.target, c.source)) return 'This connection would make a cycle: pipelines run one way, so connect to a node further along.';
  return null;
}
