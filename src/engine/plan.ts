import type { PipelineConnection, PipelineDefinition } from '@/shared/pipeline';
import { ancestors, buildGraph, type Graph, type GraphNode, type Registry } from './graph';
import { validateDefinition, type ValidationReport } from './validate';

export interface Plan {
  report: ValidationReport;
  graph: Graph;
  schedule: Schedule;
}

/** The graph as the runner walks it: nodes by position, with their connections resolved to positions. */
export interface Schedule {
  ids: string[];
  nodes: GraphNode[];
  /** Connections into each node (those whose both ends exist), and the position of each one's source. */
  incoming: PipelineConnection[][];
  sources: number[][];
  /** Target position of each connection out of each node (one entry per connection). */
  targets: number[][];
  indegree: number[];
}

function scheduleOf(graph: Graph): Schedule {
  const ids = [...graph.nodes.keys()];
  const position = new Map(ids.map((id, i) => [id, i]));
  return {
    ids,
    nodes: ids.map((id) => graph.nodes.get(id)!),
    incoming: ids.map((id) => graph.incoming.get(id) ?? []),
    sources: ids.map((id) => (graph.incoming.get(id) ?? []).map((c) => position.get(c.source)!)),
    targets: ids.map((id) => (graph.outgoing.get(id) ?? []).map((c) => position.get(c.target)!)),
    indegree: ids.map((id) => graph.incoming.get(id)?.length ?? 0),
  };
}

/** Validation and graph of a definition object, made once per object (executions of a version share them). */
const plans = new WeakMap<Registry, WeakMap<PipelineDefinition, Plan>>();

export function planOf(def: PipelineDefinition, registry: Registry): Plan {
  let byDef = plans.get(registry);
  if (!byDef) plans.set(registry, (byDef = new WeakMap()));
  let plan = byDef.get(def);
  if (!plan) {
    const graph = buildGraph(def, registry);
    plan = { report: validateDefinition(def, registry), graph, schedule: scheduleOf(graph) };
    byDef.set(def, plan);
  }
  return plan;
}

/**
 * "Run to here": the nodes a run restricted to `target` runs — the target and everything upstream of it
 * (whatever feeds it, however indirectly). Every other node is left out (skipped, not_requested). Null
 * when the graph has no such node.
 */
export function runToNodes(graph: Graph, target: string): Set<string> | null {
  return graph.nodes.has(target) ? ancestors(graph, target) : null;
}
