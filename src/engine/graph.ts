import type { z } from 'zod';
import { NodeSettings, type PipelineConnection, type PipelineDefinition, type PipelineNode } from '@/shared/pipeline';
import type { PortSpec, TriggerEvent } from './node-descriptor';
import type { NodeType } from './node-type';

export type Registry = (typeId: string) => NodeType | undefined;

export interface GraphNode {
  def: PipelineNode;
  type?: NodeType;
  /** Parsed config, when it fits the node type's schema. */
  config?: unknown;
  configError?: z.ZodError;
  inputs: PortSpec[];
  outputs: PortSpec[];
  /** Timeout and retry policy, defaults filled in. */
  settings: NodeSettings;
}

export interface Graph {
  nodes: Map<string, GraphNode>;
  /** Connections whose both ends exist, by target and by source node. */
  incoming: Map<string, PipelineConnection[]>;
  outgoing: Map<string, PipelineConnection[]>;
  /** Input ports that have a connection, by node. */
  fed: Map<string, Set<string>>;
  triggers: string[];
}

/** Indexes a definition: node types looked up, configs parsed, connections by node. Never throws. */
export function buildGraph(def: PipelineDefinition, registry: Registry): Graph {
  const nodes = new Map<string, GraphNode>();
  for (const def_ of def.nodes) {
    if (nodes.has(def_.id)) continue;
    const type = registry(def_.type);
    const settings = NodeSettings.safeParse(def_.settings ?? {});
    const node: GraphNode = { def: def_, type, inputs: [], outputs: [], settings: settings.success ? settings.data : NodeSettings.parse({}) };
    if (type) {
      const parsed = type.config.safeParse(def_.config ?? {});
      if (parsed.success) {
        node.config = parsed.data;
        const ports = type.ports(parsed.data);
        node.inputs = ports.inputs;
        node.outputs = ports.outputs;
      } else {
        node.configError = parsed.error;
      }
    }
    nodes.set(def_.id, node);
  }
  const incoming = new Map<string, PipelineConnection[]>();
  const outgoing = new Map<string, PipelineConnection[]>();
  const fed = new Map<string, Set<string>>();
  for (const c of def.connections) {
    if (!nodes.has(c.source) || !nodes.has(c.target)) continue;
    push(incoming, c.target, c);
    push(outgoing, c.source, c);
    if (fed.has(c.target)) fed.get(c.target)!.add(c.target_port);
    else fed.set(c.target, new Set([c.target_port]));
  }
  const triggers = [...nodes.values()].filter((n) => n.type?.trigger).map((n) => n.def.id);
  return { nodes, incoming, outgoing, fed, triggers };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Kahn's algorithm, stable in definition order; `cycle` lists the nodes left over when there is one. */
export function topologicalOrder(graph: Graph): { order: string[]; cycle: string[] } {
  const indegree = new Map<string, number>();
  for (const id of graph.nodes.keys()) indegree.set(id, 0);
  for (const [id, list] of graph.incoming) indegree.set(id, list.length);
  const queue = [...graph.nodes.keys()].filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  while (queue.length > 0) {
    const id = queue.shift()!;
    order.push(id);
    for (const c of graph.outgoing.get(id) ?? []) {
      const left = indegree.get(c.target)! - 1;
      indegree.set(c.target, left);
      if (left === 0) queue.push(c.target);
    }
  }
  const cycle = [...graph.nodes.keys()].filter((id) => !order.includes(id));
  return { order, cycle };
}

/** `from` and every node reachable from it. */
export function descendants(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>([from]);
  const stack = [from];
  while (stack.length > 0) {
    for (const c of graph.outgoing.get(stack.pop()!) ?? []) {
      if (!seen.has(c.target)) {
        seen.add(c.target);
        stack.push(c.target);
      }
    }
  }
  return seen;
}

/** `to` and every node it can be reached from (everything upstream of it). */
export function ancestors(graph: Graph, to: string): Set<string> {
  const seen = new Set<string>([to]);
  const stack = [to];
  while (stack.length > 0) {
    for (const c of graph.incoming.get(stack.pop()!) ?? []) {
      if (!seen.has(c.source)) {
        seen.add(c.source);
        stack.push(c.source);
      }
    }
  }
  return seen;
}

/** The pipeline's trigger node (the first, when there are several: the validator refuses that). */
export function triggerOf(graph: Graph): GraphNode | undefined {
  const id = graph.triggers[0];
  return id === undefined ? undefined : graph.nodes.get(id);
}

/**
 * The inputs an outside event gives the pipeline's trigger, or null when the trigger does not listen for
 * that kind of event (a webhook call to a pipeline started by a schedule) or its config is invalid.
 */
export function triggerInputs(graph: Graph, event: TriggerEvent): Record<string, unknown> | null {
  const node = triggerOf(graph);
  const spec = node?.type?.trigger;
  if (!spec || node.configError || (event.kind !== 'manual' && !spec.events.includes(event.kind))) return null;
  return spec.toInputs(event, node.config);
}

/** The types of the nodes that connections from `nodeId`'s output `port` feed; a disabled node (its input passes on) as `disabled`. */
export function outputTargets(graph: Graph, nodeId: string, port: string): string[] {
  const out: string[] = [];
  for (const c of graph.outgoing.get(nodeId) ?? []) {
    if (c.source_port !== port) continue;
    const target = graph.nodes.get(c.target)?.def;
    out.push(!target || target.disabled ? 'disabled' : target.type);
  }
  return out;
}
