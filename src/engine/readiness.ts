import type { PipelineConnection } from '@/shared/pipeline';
import type { NodeRun } from './execute-node';
import type { Graph } from './graph';

// When a node runs: its inputs are gathered once every upstream settled; it is skipped when a branch
// feeding a required input was not taken (or nothing reached it), and when an upstream failed.

/** A node's inputs once every upstream settled (and whether one of them failed), or `wait`. */
export type Gathered = { wait: true } | { wait: false; inputs: Record<string, unknown>; filled: number; upstreamFailed: string | null };

/**
 * What a node receives: the values its connected upstream ports gave (`sources[k]` is where the source of
 * `incoming[k]` is in `runs`). `wait` until all upstreams settled.
 */
export function gatherFrom(incoming: PipelineConnection[], sources: number[], runs: (NodeRun | undefined)[]): Gathered {
  const inputs: Record<string, unknown> = {};
  let filled = 0;
  let upstreamFailed: string | null = null;
  for (let k = 0; k < incoming.length; k++) {
    const c = incoming[k]!;
    const source = runs[sources[k]!];
    if (!source) return WAIT;
    switch (source.status) {
      case 'skipped':
        if (source.reason === 'upstream_failed') upstreamFailed = c.source;
        if (source.reason !== 'disabled') break;
      // falls through: a disabled node passed its input on, read like a completed one
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
