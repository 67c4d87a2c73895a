import type { PipelineConnection } from '@/shared/pipeline';
import { BEHAVIORS, doesJob, isOutput, OUTPUT_TYPE } from '../planner/behaviors';
import type { Point } from '../planner/build';
import { readRequest } from '../planner/read';
import type { ConfigContext, Connector } from '../planner/configure';
import type { Flow } from '../planner/flow';
import { isSink, isTrigger, type EditGraph } from './graph';
import { findNode } from './resolve';

/** What the ops share: the organization's connectors, the node the previous change placed ("…, then …"). */
export interface EditContext {
  connectors: Connector[];
  last?: string;
}

/** Configuring from a clause: the generator's reading of it, the connectors, and the ones the pipeline uses. */
export function configContext(g: EditGraph, text: string, ctx: EditContext): ConfigContext {
  const req = readRequest(text);
  // "the warehouse table adt_bundles": the name after "table" is the table
  const table = /\btable\s+(?:called\s+|named\s+)?[`"']?([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)[`"']?/.exec(req.lower);
  if (table && !['of', 'in', 'the', 'a', 'for', 'at', 'on', 'too', 'as'].includes(table[1]!)) req.table = table[1];
  // a connector the clause names is the one meant, even when another node uses it
  const used = new Set(g.def.nodes.map((n) => n.config.connector).filter((c): c is string => typeof c === 'string' && !req.lower.includes(c.toLowerCase())));
  return { req, connectors: ctx.connectors, used };
}

/** Every output of the main chain where data flows (not events, not what a write answered), first to last. */
export function chainPoints(g: EditGraph, flows: Map<string, Flow>): Point[] {
  const points: Point[] = [];
  for (const id of g.mainChain()) {
    const n = g.node(id)!;
    if (isOutput(n.type) || isSink(n.type)) continue;
    if (isTrigger(n.type)) {
      for (const c of g.outgoing(id)) if (!points.some((p) => p.node === id && p.port === c.source_port)) points.push(g.point(flows, id, c.source_port));
      continue;
    }
    const port = g.mainOutput(id);
    if (port) points.push(g.point(flows, id, port));
  }
  return points.filter((p) => p.flow.kind !== 'event' || points.every((q) => q.flow.kind === 'event'));
}

/**
 * The data a phrase is about, as a point of the pipeline: "the rejected claims" (what a validator sets aside),
 * "the claims that pass the edits", "the raw message", "every parsed interchange", "the FHIR bundle", "the summary".
 */
export function subjectPoint(g: EditGraph, flows: Map<string, Flow>, phrase: string): Point | undefined {
  const p = phrase.toLowerCase();
  const order = g.order();
  const validators = order.map((id) => g.node(id)!).filter((n) => /validate$/.test(n.type));
  if (/\b(rejected|invalid|fail\w*|errors?|bad|broken)\b/.test(p) && validators.length) {
    const v = validators.find((n) => g.asideOutput(n.id)) ?? validators[0]!;
    const aside = g.asideOutput(v.id);
    if (aside) return g.point(flows, v.id, aside);
  }
  if (/\b(pass\w*|valid|good|accepted)\b/.test(p) && validators.length) return g.point(flows, validators[0]!.id, g.mainOutput(validators[0]!.id)!);
  const trigger = g.trigger;
  if (/\b(raw|original|incoming|as (it|they) arrives?|unchanged|received)\b/.test(p) && trigger) {
    const port =
      g.outgoing(trigger.id).find((c) => flows.get(`${trigger.id}.${c.source_port}`)?.type === 'text')?.source_port ?? g.outgoing(trigger.id)[0]?.source_port;
    if (port) return g.point(flows, trigger.id, port);
  }
  if (/\bfrom the (note|input|original|incoming|text|file)\b/.test(p) && trigger) {
    const c = g.outgoing(trigger.id).find((x) => flows.get(`${trigger.id}.${x.source_port}`)?.kind !== 'event');
    if (c) return g.point(flows, trigger.id, c.source_port);
  }
  const chain = chainPoints(g, flows);
  if (/\bfhir\b|\bbundles?\b/.test(p) && !/\bparsed\b/.test(p)) {
    const fhir = chain.filter((pt) => pt.flow.kind === 'fhir');
    if (fhir.length) return fhir.at(-1);
  }
  if (/\bparsed\b/.test(p)) return chain.find((pt) => BEHAVIORS[g.node(pt.node)!.type]?.parses);
  if (/\bsummar\w*/.test(p)) return chain.find((pt) => doesJob(g.node(pt.node)!.type, 'summary'));
  return undefined;
}

/** The point a named node's data leaves by (its main output), or for a trigger, the output it feeds the pipeline by. */
export function pointAfter(g: EditGraph, flows: Map<string, Flow>, id: string): Point | undefined {
  const n = g.node(id)!;
  if (isTrigger(n.type)) {
    const c = g.outgoing(id).find((x) => flows.get(`${id}.${x.source_port}`)?.kind !== 'event') ?? g.outgoing(id)[0];
    return c ? g.point(flows, id, c.source_port) : undefined;
  }
  const port = g.mainOutput(id);
  return port ? g.point(flows, id, port) : undefined;
}

/** The connection that leaves a node along the main flow (to the main chain when it forks). */
export function edgeAfter(g: EditGraph, id: string): PipelineConnection | undefined {
  const n = g.node(id)!;
  const out = isTrigger(n.type) ? g.outgoing(id) : g.outgoing(id, g.mainOutput(id));
  const chain = g.mainChain();
  return out.find((c) => chain.includes(c.target)) ?? out[0];
}

/** "alongside the summary": the node named, whose input the new branch shares. */
export function alongside(g: EditGraph, phrase: string): string | undefined {
  const m = /\b(?:alongside|next to|beside|in parallel (?:to|with))\s+(.+?)(?=[,.;]|$)/i.exec(phrase);
  if (!m) return undefined;
  const n = findNode(g, m[1]!);
  return n && !isOutput(n.type) && !isTrigger(n.type) ? n.id : undefined;
}

/** A key for a new pipeline output that no other output has. */
export function freeKey(g: EditGraph, base: string): string {
  const keys = new Set(g.def.nodes.filter((n) => isOutput(n.type)).map((n) => String(n.config.key ?? n.id)));
  let k = base;
  for (let i = 2; keys.has(k); i++) k = `${base}_${i}`;
  return k;
}

/** A new output for what a node gives, keyed after it. */
export function addOutput(g: EditGraph, from: Point, base: string): string {
  const key = freeKey(g, base);
  const near = g.node(from.node)!.position;
  const id = g.add(OUTPUT_TYPE, { key }, { x: near.x + 260, y: near.y }, { id: `out_${key}`.replace(/[^A-Za-z0-9_]/g, '_') });
  g.connect(from.node, from.port, id, 'value');
  return id;
}
