import { isDeepStrictEqual } from 'node:util';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';
import type { EvalChecks } from './requests';

export interface CheckResult {
  passed: number;
  total: number;
  /** The checks that failed, in words. */
  failed: string[];
}

interface Graph {
  nodes: PipelineNode[];
  connections: PipelineConnection[];
}

function get(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

function downstream(g: Graph, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    for (const c of g.connections) if (c.source === id && !seen.has(c.target)) stack.push((seen.add(c.target), c.target));
  }
  return seen;
}

/** Runs a request's checks on a planned pipeline: each node type, connection, order and config value is one check. */
export function runChecks(g: Graph, checks: EvalChecks): CheckResult {
  const failed: string[] = [];
  let total = 0;
  const check = (ok: boolean, what: string) => {
    total++;
    if (!ok) failed.push(what);
  };
  const of = (type: string) => g.nodes.filter((n) => n.type === type);
  if (checks.trigger) {
    const trigger = g.nodes.find((n) => getNodeDescriptor(n.type)?.trigger);
    check(trigger?.type === checks.trigger, `trigger ${checks.trigger} (got ${trigger?.type ?? 'none'})`);
  }
  for (const t of checks.nodes ?? []) check(of(t).length > 0, `has ${t}`);
  for (const t of checks.absent ?? []) check(of(t).length === 0, `has no ${t}`);
  for (const [s, t] of checks.connections ?? []) {
    check(
      g.connections.some((c) => of(s).some((n) => n.id === c.source) && of(t).some((n) => n.id === c.target)),
      `connection ${s} → ${t}`,
    );
  }
  if (checks.order) {
    const pairs = checks.order.slice(1).map((t, i) => [checks.order![i]!, t] as const);
    check(
      pairs.every(([a, b]) => of(a).some((n) => of(b).some((m) => downstream(g, n.id).has(m.id)))),
      `order ${checks.order.join(' → ')}`,
    );
  }
  for (const c of checks.config ?? []) {
    const node = of(c.type)[0];
    const value = node ? get(node.config, c.path) : undefined;
    check(isDeepStrictEqual(value, c.equals), `${c.type} config.${c.path} = ${JSON.stringify(c.equals)} (got ${JSON.stringify(value)})`);
  }
  return { passed: total - failed.length, total, failed };
}
