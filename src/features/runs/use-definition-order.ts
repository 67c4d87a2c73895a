'use client';

import { useMemo } from 'react';
import { api } from '@/trpc/react';
import type { ExecutionDetail, ExecutionNode } from './types';

interface Def {
  nodes: Array<{ id: string; type: string }>;
  connections: Array<{ source: string; target: string }>;
}

/** Depth of each node in the graph (longest path from a trigger), to order nodes that started in the same millisecond. */
export function graphRanks(def: Def): Map<string, number> {
  const incoming = new Map(def.nodes.map((n) => [n.id, 0]));
  const next = new Map<string, string[]>();
  for (const c of def.connections) {
    if (!incoming.has(c.source) || !incoming.has(c.target)) continue;
    incoming.set(c.target, (incoming.get(c.target) ?? 0) + 1);
    next.set(c.source, [...(next.get(c.source) ?? []), c.target]);
  }
  const rank = new Map<string, number>();
  const queue = def.nodes.filter((n) => incoming.get(n.id) === 0).map((n) => n.id);
  for (const id of queue) rank.set(id, 0);
  while (queue.length) {
    const id = queue.shift()!;
    for (const t of next.get(id) ?? []) {
      rank.set(t, Math.max(rank.get(t) ?? 0, (rank.get(id) ?? 0) + 1));
      const left = (incoming.get(t) ?? 1) - 1;
      incoming.set(t, left);
      if (left === 0) queue.push(t);
    }
  }
  return rank;
}

function notRun(id: string, type: string): ExecutionNode {
  const empty = { inputs: {}, outputs: {}, payloads: 'kept' as const, logs: [], error: null, reason: null, attempts: 0 };
  return { node_id: id, node_type: type, status: 'pending', ...empty, started_at: null, finished_at: null, duration_ms: null };
}

/**
 * The definition the run used (its pipeline version): graph ranks to order the timeline, and rows for
 * the nodes that have no record yet (pending while the run is under way). Without it (pipeline
 * deleted) the run's own records are all there is.
 */
export function useDefinitionOrder(run: ExecutionDetail) {
  const version = api.pipelines.version.useQuery({ id: run.pipeline_id, n: run.pipeline_version }, { staleTime: Infinity, retry: false });
  const def = version.data?.definition;
  const ranks = useMemo(() => (def ? graphRanks(def) : new Map<string, number>()), [def]);
  const nodes = useMemo(() => {
    if (!def) return run.nodes;
    const seen = new Set(run.nodes.map((n) => n.node_id));
    return [...run.nodes, ...def.nodes.filter((n) => !seen.has(n.id)).map((n) => notRun(n.id, n.type))];
  }, [def, run.nodes]);
  return { nodes, ranks };
}
