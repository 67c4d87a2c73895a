import type { PipelineConnection } from '@/shared/pipeline';
import { BEHAVIORS, isOutput } from '../planner/behaviors';
import type { Point } from '../planner/build';
import { configureNode } from '../planner/configure-node';
import { flowText, type Flow } from '../planner/flow';
import { readRequest } from '../planner/read';
import { isSink, isTrigger, type EditGraph } from './graph';
import type { Anchor, Op } from './intent';
import { addOutput, alongside, chainPoints, configContext, edgeAfter, pointAfter, subjectPoint, type EditContext } from './points';
import { findNode } from './resolve';
import { linkInto, placeNew, takesExisting } from './route';
import { forFlow, stepAsked } from './steps';

export interface OpResult {
  ok: boolean;
  changes: string[];
  problem?: string;
  /** The node the change placed, for a "then …" after it. */
  placed?: string;
}

const fail = (problem: string): OpResult => ({ ok: false, changes: [], problem });

/** X12 said to be 835 ("also convert 835 remittances") makes an X12 flow an 835 one for choosing the node. */
const flowFor =
  (clause: string) =>
  (f: Flow): Flow =>
    f.kind === 'x12' && /\b835\b|remittance/i.test(clause) ? { ...f, x12: '835' } : f;

/** A new node of one of `types` on a connection, taking the connection's place: source → new → target. */
export function insertOnEdge(g: EditGraph, edge: PipelineConnection, types: string[], clause: string, ctx: EditContext): OpResult {
  const flows = g.flows();
  const from = g.point(flows, edge.source, edge.source_port);
  const tried: string[] = [];
  for (const type of forFlow(types, flowFor(clause)(from.flow))) {
    const trial = g.clone();
    const said: string[] = [];
    const placed = placeNew(trial, [from], type, configContext(trial, clause, ctx), said, { flowFor: flowFor(clause) });
    if (!placed?.out) {
      tried.push(`${type} does not take ${flowText(from.flow)}`);
      continue;
    }
    trial.disconnect(edge);
    const cfg = configContext(trial, clause, ctx);
    // the target took this kind of data before (a step that passes it on, de-identified, checked): the port types suffice
    const same = placed.out.flow.kind === from.flow.kind;
    const linked =
      linkInto(trial, placed.out, edge.target, edge.target_port, cfg, said) ||
      (same && linkInto(trial, placed.out, edge.target, edge.target_port, cfg, said, { portsOnly: true }));
    if (!linked) {
      tried.push(`${edge.target}.${edge.target_port} does not take what ${type} gives (${flowText(placed.out.flow)})`);
      continue;
    }
    Object.assign(g.def, trial.def);
    const filled = placed.filled.length ? `: ${placed.filled.join(', ')}` : '';
    const todo = placed.missing.length ? ` (to finish: ${placed.missing.join('; ')})` : '';
    return { ok: true, placed: placed.id, changes: [...said, `added ${g.label(placed.id)} between ${edge.source} and ${edge.target}${filled}${todo}`] };
  }
  return fail(`could not put ${types[0]} between ${edge.source} and ${edge.target}: ${tried.join('; ')}`);
}

/** A new node of one of `types` on a branch of its own from `from` (what is there stays as it is). */
export function branchFrom(g: EditGraph, from: Point[], types: string[], clause: string, ctx: EditContext): OpResult {
  const tried: string[] = [];
  const tries = from.flatMap((p) => [0, 2].map((depth) => ({ p, depth })));
  for (const { p, depth } of tries) {
    for (const type of forFlow(types, flowFor(clause)(p.flow))) {
      const trial = g.clone();
      const said: string[] = [];
      const placed = placeNew(trial, [p], type, configContext(trial, clause, ctx), said, { depth, flowFor: flowFor(clause) });
      if (!placed) {
        tried.push(type);
        continue;
      }
      const changes = [
        ...said,
        `added ${trial.label(placed.id)} on a branch of its own from ${trial.incoming(placed.id)[0]?.source ?? from[0]!.node}` +
          `${placed.filled.length ? `: ${placed.filled.join(', ')}` : ''}${placed.missing.length ? ` (to finish: ${placed.missing.join('; ')})` : ''}`,
      ];
      // what a non-write step gives goes to an output of its own, so it is not lost
      const key = BEHAVIORS[type]?.outputKey ?? placed.out?.port;
      if (placed.out && key && !isSink(type)) changes.push(`its result goes to the output ${addOutput(trial, placed.out, key)}`);
      Object.assign(g.def, trial.def);
      return { ok: true, placed: placed.id, changes };
    }
  }
  return fail(`nothing in the pipeline gives what ${[...new Set(tried)].join(' or ')} takes (it has ${from.map((p) => flowText(p.flow)).join(', ')})`);
}

/** Moves an existing node: out of its place (its neighbours reconnected), onto the connection the anchor names. */
function move(g: EditGraph, id: string, anchor: Anchor, ctx: EditContext, clause: string): OpResult {
  const trial = g.clone();
  const said: string[] = [];
  const into = trial.mainIn(id);
  const port = trial.mainOutput(id);
  const outs = port ? trial.outgoing(id, port) : [];
  if (!into || !port) return fail(`${g.label(id)} has no input or output to move it by`);
  const cfg = () => configContext(trial, clause, ctx);
  const before = trial.point(trial.flows(), into.source, into.source_port);
  for (const c of [into, ...outs]) trial.disconnect(c);
  for (const o of outs)
    if (!linkInto(trial, before, o.target, o.target_port, cfg(), said))
      return fail(`taking ${id} out of its place would leave ${o.target} without what it takes`);
  const at = anchorEdge(trial, anchor, [id]);
  if (!at.edge) return fail(at.problem ?? `no connection to move ${id} onto`);
  const edge = at.edge;
  const from = trial.point(trial.flows(), edge.source, edge.source_port);
  trial.disconnect(edge);
  if (!linkInto(trial, from, id, trial.mainInput(id)!, cfg(), said)) return fail(`${id} does not take what ${edge.source} gives (${flowText(from.flow)})`);
  if (!linkInto(trial, trial.point(trial.flows(), id, port), edge.target, edge.target_port, cfg(), said))
    return fail(`${edge.target} does not take what ${id} gives`);
  Object.assign(g.def, trial.def);
  return { ok: true, placed: id, changes: [...said, `moved ${g.label(id)} between ${edge.source} and ${edge.target}`] };
}

/** The connection an anchor names: after A (what leaves it), before B (what enters it), between A and B. */
function anchorEdge(g: EditGraph, anchor: Anchor, exclude: string[]): { edge?: PipelineConnection; node?: string; problem?: string } {
  const a = findNode(g, anchor.a, { exclude });
  if (!a) return { problem: `no step of the pipeline is "${anchor.a}"` };
  if (anchor.rel === 'between') {
    const b = anchor.b ? findNode(g, anchor.b, { exclude: [...exclude, a.id] }) : undefined;
    if (!b) return { problem: `no step of the pipeline is "${anchor.b}"` };
    const edge = g.def.connections.find((c) => c.source === a.id && c.target === b.id) ?? g.def.connections.find((c) => c.source === b.id && c.target === a.id);
    return edge ? { edge, node: a.id } : { edge: g.mainIn(b.id), node: b.id };
  }
  if (anchor.rel === 'before') {
    if (isTrigger(a.type)) return { problem: `nothing can come before the trigger ${a.id}` };
    return { edge: g.mainIn(a.id), node: a.id };
  }
  return { edge: edgeAfter(g, a.id), node: a.id };
}

/** Where a new step goes when the request does not say: the latest connection of the main chain where it fits. */
function defaultEdge(g: EditGraph, types: string[]): PipelineConnection | undefined {
  const chain = g.mainChain();
  const flows = g.flows();
  const edges = chain
    .slice(1)
    .map((id) => g.mainIn(id))
    .filter((c): c is PipelineConnection => Boolean(c))
    .reverse();
  const fits = (c: PipelineConnection) => types.some((t) => takesNew(g, flows, c, t));
  return edges.find(fits) ?? edges.find((c) => isOutput(g.node(c.target)?.type ?? '')) ?? edges[0];
}

function takesNew(g: EditGraph, flows: Map<string, Flow>, c: PipelineConnection, type: string, depth = 0): boolean {
  const trial = g.clone();
  return (
    placeNew(trial, [trial.point(flows, c.source, c.source_port)], type, { req: readRequest(''), connectors: [], used: new Set() }, [], { depth }) !== null
  );
}

/** "Add X before/after/between …", "X once the message is parsed", "also X", "do X after Y" (a move), "make X …" (its config). */
export function placeOp(g: EditGraph, op: Extract<Op, { kind: 'place' }>, ctx: EditContext): OpResult {
  const ask = stepAsked(op.what);
  let anchorTo = op.anchor ? anchorEdge(g, op.anchor, []) : undefined;
  if (anchorTo?.problem) return fail(anchorTo.problem);
  // the step meant is the one of the kind asked that fits the data where it goes (FHIR is validated by the validator made for FHIR)
  const at = anchorTo?.edge ? g.point(g.flows(), anchorTo.edge.source, anchorTo.edge.source_port) : undefined;
  const meant =
    ask && at ? (forFlow(ask.types, flowFor(op.clause)(at.flow)).find((t) => takesNew(g, g.flows(), anchorTo!.edge!, t, 2)) ?? ask.types[0]) : undefined;
  const existing = ask
    ? g.def.nodes.find((n) => (meant ? n.type === meant : ask.types.includes(n.type)))
    : !op.adds && op.anchor
      ? findNode(g, op.what)
      : undefined;
  if (!ask && !existing) return fail(`"${op.clause}" names no step the catalog has`);
  if (existing && op.anchor && anchorTo?.node === existing.id) {
    anchorTo = anchorEdge(g, op.anchor, [existing.id]);
    if (anchorTo.problem) return fail(anchorTo.problem);
  }
  if (existing && !op.adds && !op.parallel) {
    if (op.anchor && anchorTo?.edge && anchorTo.node !== existing.id) return move(g, existing.id, op.anchor, ctx, op.clause);
    if (!op.anchor) {
      const r = configureNode(existing.type, op.clause, { base: existing.config, connectors: ctx.connectors });
      const changed = r && JSON.stringify(r.config) !== JSON.stringify(existing.config);
      if (r && changed && !r.problem) {
        existing.config = r.config;
        return { ok: true, placed: existing.id, changes: [`${g.label(existing.id)}: ${r.filled.join(', ') || 'configured from the request'}`] };
      }
      if (!op.then) return fail(`${g.label(existing.id)} is already there, and "${op.clause}" says nothing to change in it`);
    }
  }
  const types = ask?.types ?? [existing!.type];
  const flows = g.flows();
  const sink = types.every(isSink);
  const after = op.anchor ? anchorTo!.node : op.then ? ctx.last : undefined;
  if (op.parallel || sink) {
    const sibling = alongside(g, op.clause);
    const subject = subjectPoint(g, flows, op.what);
    let from: Point[];
    if (sibling && g.mainIn(sibling)) from = [g.point(flows, g.mainIn(sibling)!.source, g.mainIn(sibling)!.source_port)];
    else if (op.anchor?.rel === 'before' && anchorTo?.edge) from = [g.point(flows, anchorTo.edge.source, anchorTo.edge.source_port)];
    else if (after && g.node(after)) from = [pointAfter(g, flows, after)].filter((p): p is Point => Boolean(p));
    else if (subject) from = [subject];
    else from = chainPoints(g, flows).reverse();
    if (!from.length) return fail(`no place in the pipeline gives data to ${types[0]}`);
    return branchFrom(g, from, types, op.clause, ctx);
  }
  const edge = op.anchor ? anchorTo!.edge : after && g.node(after) ? edgeAfter(g, after) : defaultEdge(g, types);
  if (!edge) {
    const point = after ? pointAfter(g, flows, after) : undefined;
    return point ? branchFrom(g, [point], types, op.clause, ctx) : fail(`no connection in the pipeline to put ${types[0]} on`);
  }
  return insertOnEdge(g, edge, types, op.clause, ctx);
}

export { takesExisting };
