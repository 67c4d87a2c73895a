import { portsFit } from '@/shared/ports';
import { BEHAVIORS } from '../planner/behaviors';
import { findRoute, fit, outFlow, takesRaw, type Point } from '../planner/build';
import { configure, type ConfigContext } from '../planner/configure';
import { ALL_CONVERTERS, type Converter } from '../planner/converters';
import { flowText, type Flow } from '../planner/flow';
import type { EditGraph } from './graph';

/** Whether an existing node's input takes a flow: the port types, and what its behavior says it can read. */
export function takesExisting(g: EditGraph, target: string, port: string, flow: Flow): boolean {
  const node = g.node(target)!;
  const type = g.inputType(target, port);
  if (!type || !portsFit(flow.type, type)) return false;
  if (flow.type === 'text' && ['hl7', 'x12', 'csv'].includes(flow.kind) && !takesRaw(node.type)) return false;
  const b = BEHAVIORS[node.type];
  if (b?.input !== port) return true;
  const takes = b.keeps ?? b.takes;
  return takes ? takes(flow) : true;
}

interface Hop {
  conv: Converter;
  config: Record<string, unknown>;
  input: string;
  flow: Flow;
  out: Flow;
}

/** The converters (none, or up to two) that take `from` to an existing node's input. */
function hopsInto(g: EditGraph, from: Point, target: string, port: string, req: ConfigContext['req'], exclude: string[] = []): Hop[] | null {
  if (takesExisting(g, target, port, from.flow)) return [];
  let frontier: { flow: Flow; via: Hop[] }[] = [{ flow: from.flow, via: [] }];
  for (let depth = 0; depth < 2; depth++) {
    const next: typeof frontier = [];
    for (const s of frontier) {
      for (const conv of ALL_CONVERTERS) {
        if (conv.only || exclude.includes(conv.type) || s.via.some((v) => v.conv.key === conv.key)) continue;
        const f = fit(conv.type, s.flow, conv.config(s.flow, req), conv.takes);
        if (!f) continue;
        const out = outFlow(conv.type, BEHAVIORS[conv.type]!.output!, s.flow, f.config, conv.gives);
        const via = [...s.via, { conv, config: f.config, input: f.input, flow: s.flow, out }];
        if (takesExisting(g, target, port, out)) return via;
        next.push({ flow: out, via });
      }
    }
    frontier = next;
  }
  return null;
}

/** Adds the converters of a route after `from`; gives the point the last one leaves by. */
function materialize(
  g: EditGraph,
  from: Point,
  hops: { conv: Converter; config: Record<string, unknown>; input: string; flow: Flow }[],
  ctx: ConfigContext,
  said: string[],
): Point {
  let at = from;
  for (const h of hops) {
    const { config } = configure(h.conv.type, h.config, h.flow, ctx);
    const near = g.node(at.node)!.position;
    const id = g.add(h.conv.type, config, { x: near.x + 260, y: near.y + 60 }, { id: h.conv.id, name: h.conv.name });
    g.connect(at.node, at.port, id, h.input);
    const port = BEHAVIORS[h.conv.type]!.output!;
    const flow = outFlow(h.conv.type, port, h.flow, config, h.conv.gives);
    said.push(`added ${g.label(id)} to go from ${flowText(h.flow)} to ${flowText(flow)} (${h.conv.why})`);
    at = { ...at, node: id, port, flow };
  }
  return at;
}

/** Connects `from` into an existing node's input, through converters when the values do not fit. False: no way. */
export function linkInto(
  g: EditGraph,
  from: Point,
  target: string,
  port: string,
  ctx: ConfigContext,
  said: string[],
  opts: { exclude?: string[]; portsOnly?: boolean } = {},
): boolean {
  const type = g.inputType(target, port);
  if (opts.portsOnly) {
    if (!type || !portsFit(from.flow.type, type)) return false;
    g.connect(from.node, from.port, target, port);
    return true;
  }
  const hops = hopsInto(g, from, target, port, ctx.req, opts.exclude);
  if (!hops) return false;
  const at = materialize(g, from, hops, ctx, said);
  g.connect(at.node, at.port, target, port);
  return true;
}

export interface NewNode {
  id: string;
  /** Where the flow goes on from it (null for a node with no main output). */
  out: Point | null;
  /** What was read from the request into its config. */
  filled: string[];
  missing: string[];
}

/**
 * Places a new node of `type` after one of `from` (in order of preference), with the converters its input needs in
 * between and its config filled from the flow and the request (`base` over the behavior's). Null: no way leads there.
 */
export function placeNew(
  g: EditGraph,
  from: Point[],
  type: string,
  ctx: ConfigContext,
  said: string[],
  opts: { base?: Record<string, unknown>; depth?: number; id?: string; flowFor?: (f: Flow) => Flow } = {},
): NewNode | null {
  const points = opts.flowFor ? from.map((p) => ({ ...p, flow: opts.flowFor!(p.flow) })) : from;
  const route = findRoute(points, type, ctx.req, opts.depth ?? 2);
  if (!route) return null;
  const at = materialize(g, route.from, route.via, ctx, said);
  const configured = configure(type, { ...route.fit.config, ...(opts.base ?? {}) }, route.flow, ctx);
  let config = configured.config;
  let input = fit(type, route.flow, config)?.input;
  if (!input) {
    config = { ...route.fit.config, ...(opts.base ?? {}) };
    input = fit(type, route.flow, config)?.input ?? route.fit.input;
  }
  const near = g.node(at.node)!.position;
  const id = g.add(type, config, { x: near.x + 260, y: near.y + 60 }, { id: opts.id });
  g.connect(at.node, at.port, id, input);
  const port = g.mainOutput(id);
  const out = port ? { ...at, node: id, port, flow: outFlow(type, port, route.flow, config) } : null;
  return { id, out, filled: configured.filled, missing: configured.missing };
}
