import { getNodeDescriptor } from '@/engine/nodes/descriptors';
import { BEHAVIORS, isOutput, OUTPUT_TYPE, triggerEventsOf } from '../planner/behaviors';
import type { Point } from '../planner/build';
import { idBase } from '../planner/catalog';
import { configureNode } from '../planner/configure-node';
import { flowText, type Flow } from '../planner/flow';
import { isSink, isTrigger, type EditGraph } from './graph';
import type { Op } from './intent';
import type { OpResult } from './ops-place';
import { configContext, subjectPoint, type EditContext } from './points';
import { findNode } from './resolve';
import { linkInto, placeNew } from './route';
import { forFlow, stepAsked } from './steps';

const fail = (problem: string): OpResult => ({ ok: false, changes: [], problem });

/** Nodes fed only by `id` (and by each other), which go with it: an output of what a validator rejected, say. */
function orphansOf(g: EditGraph, id: string, keepPorts: Set<string>): string[] {
  const gone = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of g.def.nodes) {
      if (gone.has(n.id)) continue;
      const ins = g.incoming(n.id);
      if (ins.length && ins.every((c) => gone.has(c.source) && !(c.source === id && keepPorts.has(c.source_port)))) {
        gone.add(n.id);
        grew = true;
      }
    }
  }
  gone.delete(id);
  return [...gone];
}

/** Takes a node out, its main input reconnected to what its main output fed; what only it fed goes with it. */
export function removeOp(g: EditGraph, op: Extract<Op, { kind: 'remove' }>, ctx: EditContext): OpResult {
  const node = findNode(g, op.target);
  if (!node) return fail(`no step of the pipeline is "${op.target.trim()}" (it has ${g.def.nodes.map((n) => n.id).join(', ')})`);
  if (isTrigger(node.type)) return fail(`${g.label(node.id)} starts the pipeline: replace it ("start this from a webhook instead") rather than removing it`);
  const outputs = g.def.nodes.filter((n) => isOutput(n.type));
  if (isOutput(node.type) && outputs.length === 1)
    return fail(
      `${g.label(node.id)} is the only thing the pipeline returns; say what should happen to the result instead ` +
        '(for example "write it to the FHIR server instead of returning it")',
    );
  const trial = g.clone();
  const said: string[] = [];
  const into = trial.mainIn(node.id);
  const port = trial.mainOutput(node.id);
  const outs = port ? trial.outgoing(node.id, port) : [];
  const orphans = orphansOf(trial, node.id, new Set(port ? [port] : []));
  if (outs.length && !into) return fail(`${g.label(node.id)} has no input to reconnect its next steps to`);
  const from: Point | undefined = into ? trial.point(trial.flows(), into.source, into.source_port) : undefined;
  trial.remove(node.id);
  for (const o of orphans) trial.remove(o);
  for (const o of outs) {
    if (!trial.node(o.target)) continue;
    const cfg = configContext(trial, op.clause, ctx);
    // never the removed kind of step back as a converter; what the port types allow is enough then
    const linked =
      linkInto(trial, from!, o.target, o.target_port, cfg, said, { exclude: [node.type] }) ||
      linkInto(trial, from!, o.target, o.target_port, cfg, said, { portsOnly: true });
    if (!linked) {
      const wants = trial.inputType(o.target, o.target_port);
      return fail(
        `removing ${g.label(node.id)} would leave ${o.target} without an input it can take: ${o.target}.${o.target_port} takes ${wants}, and ` +
          `${into!.source} gives ${flowText(from!.flow)}`,
      );
    }
  }
  Object.assign(g.def, trial.def);
  const rewired = outs.map((o) => o.target).filter((t) => g.node(t));
  return {
    ok: true,
    changes: [
      ...said,
      `removed ${g.label(node.id)}${rewired.length ? `; ${into!.source} now feeds ${rewired.join(', ')}` : ''}` +
        `${orphans.length ? `; ${orphans.join(', ')} went with it (fed only by it)` : ''}`,
    ],
  };
}

/** "B instead of A", "replace A with B": B takes A's input and feeds what A fed. */
export function replaceOp(g: EditGraph, op: Extract<Op, { kind: 'replace' }>, ctx: EditContext): OpResult {
  const ask = stepAsked(op.what);
  if (!ask) return fail(`"${op.what}" names no step the catalog has`);
  const flows = g.flows();
  const subject = subjectPoint(g, flows, op.what);
  const outputs = g.def.nodes.filter((n) => isOutput(n.type));
  // "instead of returning the de-identified bundle": what is returned is the output, whatever the words after it
  const returning = /^\s*(return\w*|output\w*|giving it back|sending it back|(an?|the) (pipeline )?output)\b/i.test(op.old);
  let old = returning ? (outputs.find((n) => g.mainChain().includes(n.id)) ?? outputs[0]) : findNode(g, op.old);
  // "instead of an output": the output the subject's data goes to
  if (subject && (!old || isOutput(old.type))) {
    const fed = g
      .outgoing(subject.node, subject.port)
      .map((c) => g.node(c.target)!)
      .find((n) => isOutput(n.type));
    if (fed) old = fed;
  }
  if (!old) return fail(`no step of the pipeline is "${op.old}"`);
  if (isTrigger(old.type)) return fail(`${old.id} is the trigger: say how the pipeline should start ("start this from a webhook instead")`);
  const into = g.mainIn(old.id);
  if (!into) return fail(`${g.label(old.id)} has no input for ${ask.types[0]} to take`);
  const trial = g.clone();
  const said: string[] = [];
  const port = isOutput(old.type) ? undefined : trial.mainOutput(old.id);
  const outs = port ? trial.outgoing(old.id, port) : [];
  // the new step takes the old one's input, else the latest data before it that it can take
  const upstream = g
    .order()
    .filter((id) => id !== old!.id && g.downstream(id).has(old!.id))
    .reverse();
  const candidates: Point[] = [trial.point(flows, into.source, into.source_port)];
  for (const id of upstream) {
    const n = g.node(id)!;
    for (const c of g.outgoing(id)) if (c.source_port !== g.asideOutput(id) || isTrigger(n.type)) candidates.push(trial.point(flows, id, c.source_port));
  }
  const cfg = configContext(trial, op.what, ctx);
  let placed = null;
  for (const type of forFlow(ask.types, candidates[0]!.flow)) {
    placed = placeNew(trial, candidates, type, cfg, said, { depth: 2 });
    if (placed) break;
  }
  if (!placed) return fail(`${ask.types[0]} cannot take what reaches ${old.id} (${flowText(candidates[0]!.flow)})`);
  trial.remove(old.id);
  for (const o of outs) {
    if (!placed.out || !linkInto(trial, placed.out, o.target, o.target_port, configContext(trial, op.what, ctx), said)) {
      return fail(`${o.target} does not take what ${placed.id} gives${placed.out ? ` (${flowText(placed.out.flow)})` : ''}`);
    }
  }
  const changes = [
    ...said,
    `replaced ${g.label(old.id)} with ${trial.label(placed.id)}${placed.filled.length ? `: ${placed.filled.join(', ')}` : ''}` +
      `${placed.missing.length ? ` (to finish: ${placed.missing.join('; ')})` : ''}`,
  ];
  // the pipeline's only output replaced by a write: the output now returns what the server answered
  if (isOutput(old.type) && !trial.def.nodes.some((n) => isOutput(n.type)) && placed.out) {
    const id = trial.add(OUTPUT_TYPE, old.config, { x: old.position.x + 260, y: old.position.y }, { id: old.id });
    trial.connect(placed.out.node, placed.out.port, id, 'value');
    changes.push(`${id} now returns what ${placed.id} answered`);
  }
  Object.assign(g.def, trial.def);
  return { ok: true, placed: placed.id, changes };
}

const FIELD: Record<string, string> = { hl7: 'message', x12: 'claims', csv: 'csv', note: 'note', fhir: 'bundle', json: 'data' };

/**
 * The outputs of a new trigger that could carry what `flow` was: where its descriptor says that data arrives
 * (`plan.starts`), the value as sent before the one the trigger parsed (the node fed took it as sent); a trigger that
 * says none gives what its config declares (a manual trigger's fields), so the old field again.
 */
function portsFor(type: string, flow: Flow, oldPort: string): { port: string; flow: Flow }[] {
  if (flow.kind === 'event') return [{ port: 'event', flow }];
  const starts = BEHAVIORS[type]?.starts;
  if (!starts) return triggerEventsOf(type) ? [{ port: oldPort, flow }] : [];
  return starts({ data: flow.kind, x12: flow.x12 })
    .filter((w) => w.flow.kind === flow.kind)
    .map((w) => ({ port: w.port, flow: { ...flow, ...w.flow } }))
    .sort((a, b) => Number(a.flow.type !== 'text') - Number(b.flow.type !== 'text'));
}

/** "Start this from a webhook instead", "every hour instead of nightly": a new trigger feeding what the old one fed. */
export function triggerOp(g: EditGraph, op: Extract<Op, { kind: 'trigger' }>, ctx: EditContext): OpResult {
  const old = g.trigger;
  if (!old) return fail('the pipeline has no trigger to replace');
  const configured = configureNode(op.to, op.said, { connectors: ctx.connectors, base: old.type === op.to ? old.config : {} });
  if (old.type === op.to) {
    if (!configured || !configured.filled.length || configured.problem)
      return fail(
        `${g.label(old.id)} is already ${getNodeDescriptor(op.to)!.name}, and "${op.clause}" says nothing to change in it` +
          `${configured?.missing.length ? ` (${configured.missing.join('; ')})` : ''}`,
      );
    old.config = configured.config;
    return { ok: true, changes: [`${g.label(old.id)}: ${configured.filled.join(', ')}`] };
  }
  const schedule = Boolean(triggerEventsOf(op.to)?.includes('schedule'));
  if (schedule && (!configured || configured.missing.length))
    return fail(`a schedule needs a time ("every day at 6", "every 15 minutes"): ${configured?.missing.join('; ') ?? ''}`);
  const flows = g.flows();
  const outs = g.outgoing(old.id);
  const config: Record<string, unknown> = { ...(configured?.config ?? {}) };
  const fieldOf = (port: string, f: Flow) => (triggerEventsOf(old.type)?.length === 0 ? port : (FIELD[f.kind] ?? 'data'));
  if (triggerEventsOf(op.to)?.length === 0) {
    const fields: Record<string, string> = {};
    for (const c of outs) {
      const f = flows.get(`${old.id}.${c.source_port}`)!;
      if (f.kind !== 'event') fields[fieldOf(c.source_port, f)] = f.type === 'trigger-event' ? 'json' : f.type;
    }
    if (Object.keys(fields).length) config.fields = fields;
  }
  for (const f of BEHAVIORS[op.to]?.fallbacks ?? []) if (config[f.field] === undefined) config[f.field] = f.value;
  const trial = g.clone();
  trial.remove(old.id);
  const id = trial.add(op.to, config, old.position, { id: idBase(op.to) });
  const said: string[] = [];
  for (const c of outs) {
    const f = flows.get(`${old.id}.${c.source_port}`)!;
    const ways = portsFor(op.to, f, fieldOf(c.source_port, f));
    const cfgCtx = configContext(trial, op.said, ctx);
    const done = ways.some((w) => linkInto(trial, { node: id, port: w.port, flow: w.flow, col: 0, row: 0 }, c.target, c.target_port, cfgCtx, said));
    if (!done) {
      const name = getNodeDescriptor(op.to)!.name;
      return fail(
        `${name} cannot give ${c.target} what it takes (${flowText(f)}): ` +
          (schedule
            ? 'a schedule starts the pipeline with only the time, so add the step that reads the data (a FHIR query, a database query) first'
            : `it starts the pipeline with ${ways.map((w) => flowText(w.flow)).join(' or ') || 'only an event'}`),
      );
    }
  }
  Object.assign(g.def, trial.def);
  const filled = configured?.filled.length ? ` (${configured.filled.join(', ')})` : '';
  return { ok: true, placed: id, changes: [...said, `replaced the trigger ${g.label(old.id)} with ${id} (${op.to})${filled}`] };
}

export { isSink };
