import type { PipelineConnection, PipelineDefinition } from '@/shared/pipeline';
import type { NodeRun } from './execute-node';
import { buildGraph, type Graph, type GraphNode, type Registry } from './graph';
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

export type Gathered = { wait: true } | { wait: false; inputs: Record<string, unknown>; filled: number; upstreamFailed: string | null };

/** What a node receives: the values its connected upstream ports gave. `wait` until all upstreams settled. */
export function gatherInputs(graph: Graph, nodeId: string, runs: Record<string, NodeRun>): Gathered {
  const incoming = graph.incoming.get(nodeId) ?? [];
  return gatherFrom(
    incoming,
    incoming.map((_, k) => k),
    incoming.map((c) => runs[c.source]),
  );
}

/** The same on positions: `sources[k]` is where the source of `incoming[k]` is in `runs`. */
export function gatherFrom(incoming: PipelineConnection[], sources: number[], runs: (NodeRun | undefined)[]): Gathered {
  const inputs: Record<string, unknown> = {};
  let filled = 0;
  let upstreamFailed: string | null = null;
  for (let k = 0; k < incoming.length; k++) {
    const c = incoming[k]!;
    const source = runs[sources[k]!];
    if (!source) return WAIT;
    switch (source.status) {
      case 'completed':
      case 'simulated':
        if (c.source_port in source.outputs) {
          if (!(c.target_port in inputs)) filled++;
          inputs[c.target_port] = source.outputs[c.source_port];
        }
        break;
      case 'failed':
        upstreamFailed = c.source;
        break;
      case 'skipped':
        break;
      default:
        return WAIT; // still pending or running
    }
  }
  return { wait: false, inputs, filled, upstreamFailed };
}

const WAIT = { wait: true } as const;

/** A node whose required inputs got nothing (a branch not taken) is skipped, as is one that got no input at all. */
export function shouldSkip(
  graph: Graph,
  nodeId: string,
  inputs: Record<string, unknown>,
  node = graph.nodes.get(nodeId)!,
  filled = Object.keys(inputs).length,
): boolean {
  if (node.type?.trigger) return false;
  const fed = graph.fed.get(nodeId);
  if (!fed) return true; // unreachable from the trigger
  for (const p of node.inputs) if (!p.optional && fed.has(p.name) && !(p.name in inputs)) return true;
  return filled === 0;
}
