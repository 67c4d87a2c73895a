import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';
import { portsFit } from '@/shared/ports';
import { BEHAVIORS } from './behaviors';
import { descriptor, idBase, portsFor } from './catalog';
import { configure, type ConfigContext } from './configure';
import { ALL_CONVERTERS, type Converter } from './converters';
import { flowText, type Flow } from './flow';

/** A place the flow can be taken from: a node's output, with what flows there and where the node sits. */
export interface Point {
  node: string;
  port: string;
  flow: Flow;
  col: number;
  row: number;
}

export interface Placed {
  id: string;
  /** The node its route starts from. */
  from: string;
  out: Point | null;
  /** The output that takes the rest aside (invalid, false, rejected, default), when the node has one. */
  aside: Point | null;
  /** Further outputs (a switch's other cases). */
  more: Point[];
}

/** Whether a node type may take HL7 v2, X12 or CSV as raw text; every other one wants it parsed first. */
export const takesRaw = (type: string): boolean => Boolean(BEHAVIORS[type]?.takesRaw);

export interface Fit {
  config: Record<string, unknown>;
  input: string;
}

/** Whether `type` takes `flow` (its behavior, then its port types for the config that fits the flow). */
export function fit(type: string, flow: Flow, base: Record<string, unknown>, takes?: (f: Flow) => boolean): Fit | null {
  const b = BEHAVIORS[type];
  if (!b || !(takes ?? b.takes ?? (() => true))(flow)) return null;
  if (flow.type === 'text' && ['hl7', 'x12', 'csv'].includes(flow.kind) && !takesRaw(type)) return null;
  const config = { ...base, ...(b.adapt?.(flow) ?? {}) };
  const ports = portsFor(type, config);
  const input = ports.inputs.find((p) => p.name === b.input) ?? ports.inputs[0];
  if (!input || !portsFit(flow.type, input.type)) return null;
  return { config, input: input.name };
}

/** What flows out of a placed node: the semantic flow, typed by the declared port when that is not `any`. */
export function outFlow(type: string, port: string, inFlow: Flow, config: Record<string, unknown>, gives?: Converter['gives']): Flow {
  const declared = portsFor(type, config).outputs.find((p) => p.name === port)?.type ?? 'any';
  const semantic = gives
    ? gives(inFlow, config)
    : (BEHAVIORS[type]?.gives?.(inFlow, config) ?? { type: declared === 'any' ? inFlow.type : declared, kind: 'json' as const });
  return { ...semantic, type: declared === 'any' ? semantic.type : declared };
}

interface Route {
  from: Point;
  via: { conv: Converter; config: Record<string, unknown>; input: string; flow: Flow }[];
  fit: Fit;
  flow: Flow;
}

/**
 * The shortest way from one of `from` (in order of preference) to a node that takes the flow: directly,
 * or through converters (breadth first, at most three, none twice).
 */
export function findRoute(from: Point[], type: string, req: ConfigContext['req'], maxDepth = 3): Route | null {
  const target = (f: Flow) => fit(type, f, {});
  let frontier = from.map((p) => ({ from: p, flow: p.flow, via: [] as Route['via'] }));
  for (let depth = 0; depth <= maxDepth; depth++) {
    for (const s of frontier) {
      const f = target(s.flow);
      if (f) return { from: s.from, via: s.via, fit: f, flow: s.flow };
    }
    if (depth === maxDepth) break;
    const next: typeof frontier = [];
    for (const s of frontier) {
      for (const conv of ALL_CONVERTERS) {
        if (s.via.some((v) => v.conv.key === conv.key) || (conv.only && !conv.only(type))) continue;
        const f = fit(conv.type, s.flow, conv.config(s.flow, req), conv.takes);
        if (!f) continue;
        const out = BEHAVIORS[conv.type]!.output!;
        const flow = outFlow(conv.type, out, s.flow, f.config, conv.gives);
        next.push({ from: s.from, flow, via: [...s.via, { conv, config: f.config, input: f.input, flow: s.flow }] });
      }
    }
    frontier = next;
  }
  return null;
}

/** Builds the definition node by node: readable ids, positions left to right, one row per branch. */
export class Builder {
  readonly nodes: PipelineNode[] = [];
  readonly connections: PipelineConnection[] = [];
  /** What converters put aside (text that does not parse…), to route when the request cares about rejects. */
  readonly converterAsides: { type: string; point: Point }[] = [];
  private readonly taken = new Set<string>();
  private nextRow = 1;

  constructor(
    readonly ctx: ConfigContext,
    readonly reasoning: string[],
    readonly unresolved: string[],
  ) {}

  newRow(): number {
    return this.nextRow++;
  }

  add(type: string, config: Record<string, unknown>, col: number, row: number, opts: { id?: string; name?: string } = {}): string {
    const base = opts.id ?? idBase(type);
    let id = base;
    for (let i = 2; this.nodes.some((n) => n.id === id); i++) id = `${base}_${i}`;
    while (this.taken.has(`${col},${row}`)) row = this.newRow();
    this.taken.add(`${col},${row}`);
    // a write is retried when it fails: it carries an idempotency key, so a retry never writes twice
    const retry = descriptor(type).side_effect === 'write' ? { settings: { retry: { max_attempts: 3, backoff_ms: 1000 } } } : {};
    this.nodes.push({ id, type, config, position: { x: col * 260, y: row * 150 }, ...(opts.name ? { name: opts.name } : {}), ...retry });
    return id;
  }

  connect(from: Point, target: string, port: string): void {
    this.connections.push({ source: from.node, source_port: from.port, target, target_port: port });
  }

  position(id: string): { col: number; row: number } {
    const p = this.nodes.find((n) => n.id === id)!.position;
    return { col: p.x / 260, row: p.y / 150 };
  }

  /** Whether some way (converters included) leads from `from` to a node of `type`. */
  routes(type: string, from: Point): boolean {
    return findRoute([from], type, this.ctx.req) !== null;
  }

  /**
   * Places `type` after one of `from`, with the converters its input needs in between, its config filled
   * from the flow and the request. Null (and said in `unresolved`) when no way leads there.
   */
  attach(type: string, from: Point[], row?: number): Placed | null {
    const route = findRoute(from, type, this.ctx.req);
    if (!route) {
      const had = from.map((p) => flowText(p.flow)).join(' or ');
      this.unresolved.push(`${type}: nothing in the plan gives what it takes (it had ${had}), so it was left out`);
      this.reasoning.push(`Could not connect ${type} after ${had}: no converter in the catalog leads there.`);
      return null;
    }
    let at: Point = route.from;
    let col = at.col;
    const rowOf = row ?? at.row;
    for (const v of route.via) {
      const { config, filled } = configure(v.conv.type, v.config, v.flow, this.ctx);
      const id = this.add(v.conv.type, config, ++col, rowOf, { id: v.conv.id, name: v.conv.name });
      this.connect(at, id, v.input);
      const out = BEHAVIORS[v.conv.type]!.output!;
      const flow = outFlow(v.conv.type, out, v.flow, config, v.conv.gives);
      this.reasoning.push(
        [
          `Inserted ${id} (${v.conv.type}) before ${type}: it takes ${flowText(v.flow)} and gives`,
          `${flowText(flow)}; ${v.conv.why}${filled.length ? ` (${filled.join(', ')})` : ''}.`,
        ].join(' '),
      );
      at = { node: id, port: out, flow, col, row: this.position(id).row };
      const aside = BEHAVIORS[v.conv.type]!.aside;
      if (aside && portsFor(v.conv.type, config).outputs.some((o) => o.name === aside)) {
        this.converterAsides.push({ type: v.conv.type, point: { ...at, port: aside, flow: { type: 'json', kind: 'json' } } });
      }
    }
    const configured = configure(type, route.fit.config, route.flow, this.ctx);
    let config = configured.config;
    let input = fit(type, route.flow, config)?.input;
    if (!input) {
      config = route.fit.config;
      input = route.fit.input;
    }
    const id = this.add(type, config, ++col, at.row);
    this.connect(at, id, input);
    for (const m of configured.missing) this.unresolved.push(`${id} (${type}) ${m}`);
    this.reasoning.push(`Placed ${id} (${type}) on ${flowText(route.flow)}${configured.filled.length ? `: ${configured.filled.join(', ')}` : ''}.`);
    return { ...this.outputsOf(id, type, config, route.flow, col), from: route.from.node };
  }

  outputsOf(id: string, type: string, config: Record<string, unknown>, inFlow: Flow, col: number): Omit<Placed, 'from'> {
    const b = BEHAVIORS[type]!;
    const outputs = portsFor(type, config).outputs;
    const row = this.position(id).row;
    const point = (port: string): Point => ({ node: id, port, flow: outFlow(type, port, inFlow, config), col, row });
    if (b.branches) {
      const cases = b.branches.of(config);
      return { id, out: point(cases[0]!), aside: point(b.branches.aside), more: cases.slice(1).map(point) };
    }
    const main = b.output ?? outputs[0]?.name;
    return {
      id,
      out: main && outputs.some((o) => o.name === main) ? point(main) : null,
      aside: b.aside && outputs.some((o) => o.name === b.aside) ? point(b.aside) : null,
      more: [],
    };
  }
}
