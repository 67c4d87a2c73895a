import { isDeepStrictEqual } from 'node:util';
import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import type { PipelineDefinition, PipelineNode } from '@/shared/pipeline';
import type { CheckResult } from './check';
import type { EditChecks } from './edit-fixtures';

/** What an edit planner answered: the definition, what it changed and what it could not do, in words. */
export interface EditAnswer {
  definition: PipelineDefinition;
  changes: string[];
  unresolved: string[];
}

function get(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** The graph's shape, for "nothing changed": nodes (id, type, config, settings) and connections, in any order. */
const shape = (d: PipelineDefinition) => ({
  nodes: d.nodes.map((n) => JSON.stringify([n.id, n.type, n.config, n.settings ?? null])).sort(),
  connections: d.connections.map((c) => `${c.source}.${c.source_port}>${c.target}.${c.target_port}`).sort(),
});

/**
 * Runs an edit request's checks on the answer: node types, connections, order and config as the generate set's
 * (a node named by its id, else by its type), plus what was kept, removed and unlinked, and for a request that
 * cannot be done, that nothing changed and the answer says so.
 */
export function runEditChecks(before: PipelineDefinition, answer: EditAnswer, checks: EditChecks): CheckResult {
  const g = answer.definition;
  const failed: string[] = [];
  let total = 0;
  const check = (ok: boolean, what: string) => {
    total++;
    if (!ok) failed.push(what);
  };
  const byId = (x: string) => g.nodes.filter((n) => n.id === x);
  const of = (x: string): PipelineNode[] => (before.nodes.some((n) => n.id === x) || byId(x).length ? byId(x) : g.nodes.filter((n) => n.type === x));
  const ofType = (t: string) => g.nodes.filter((n) => n.type === t);
  const linked = (s: string, t: string) => g.connections.some((c) => of(s).some((n) => n.id === c.source) && of(t).some((n) => n.id === c.target));
  const downstream = (from: string) => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const id = stack.pop()!;
      for (const c of g.connections) if (c.source === id && !seen.has(c.target)) stack.push((seen.add(c.target), c.target));
    }
    return seen;
  };
  if (checks.refused) {
    check(isDeepStrictEqual(shape(before), shape(g)), 'the pipeline is unchanged');
    check(answer.changes.length === 0 && answer.unresolved.length > 0 && answer.unresolved.every((u) => u.length > 15), 'says in words why it cannot');
  }
  if (checks.trigger) {
    const trigger = g.nodes.find((n) => getNodeDescriptor(n.type)?.trigger);
    check(trigger?.type === checks.trigger, `trigger ${checks.trigger} (got ${trigger?.type ?? 'none'})`);
  }
  for (const t of checks.nodes ?? []) check(ofType(t).length > 0, `has ${t}`);
  for (const t of checks.absent ?? []) check(ofType(t).length === 0, `has no ${t}`);
  for (const id of checks.kept ?? []) check(byId(id).length > 0, `kept ${id}`);
  for (const x of checks.removed ?? []) check(byId(x).length === 0 && (before.nodes.some((n) => n.id === x) || ofType(x).length === 0), `removed ${x}`);
  for (const [s, t] of checks.connections ?? []) check(linked(s, t), `connection ${s} → ${t}`);
  for (const [s, t] of checks.unlinked ?? []) check(!linked(s, t), `no connection ${s} → ${t} any more`);
  if (checks.order) {
    const pairs = checks.order.slice(1).map((t, i) => [checks.order![i]!, t] as const);
    check(
      pairs.every(([a, b]) => of(a).some((n) => of(b).some((m) => downstream(n.id).has(m.id)))),
      `order ${checks.order.join(' → ')}`,
    );
  }
  for (const c of checks.config ?? []) {
    const node = of(c.type)[0];
    const value = node ? (c.path.startsWith('settings.') ? get(node, c.path) : get(node.config, c.path)) : undefined;
    check(
      isDeepStrictEqual(value, c.equals),
      `${c.type} ${c.path.startsWith('settings.') ? '' : 'config.'}${c.path} = ${JSON.stringify(c.equals)} (got ${JSON.stringify(value)})`,
    );
  }
  return { passed: total - failed.length, total, failed };
}
