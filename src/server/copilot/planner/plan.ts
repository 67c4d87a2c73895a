import { BEHAVIORS, doesJob, plannedWhere } from './behaviors';
import { idBase } from './catalog';
import { Builder, type Placed, type Point } from './build';
import { configure, type Connector } from './configure';
import { flowText, type Flow } from './flow';
import { readRequest, type Request } from './read';
import { repair, validText, type Definition } from './repair';
import { isRouter, orderSteps } from './order';
import { chooseSteps, type Step } from './select';

export interface PlanOptions {
  /** The organization's connectors: nodes that need one get the one of their type the request names, or the only one. */
  connectors?: Connector[];
}

export interface Plan {
  pipeline: { name: string } & Definition;
  /** The steps the planner took, in words. */
  reasoning: string[];
  /** What it could not fill or connect: for the user to finish. */
  unresolved: string[];
}

/** What arrives at the trigger, and by which of its outputs. */
function startPoints(req: Request, trigger: string, fields: Record<string, string>, first: Step | undefined): Point[] {
  const at = (port: string, flow: Flow): Point => ({ node: trigger, port, flow, col: 0, row: 0 });
  const starts = BEHAVIORS[req.trigger.type]?.starts;
  if (starts) return starts(req).map((s) => at(s.port, s.flow));
  if (first && BEHAVIORS[first.type]?.role === 'source') return [at('event', { type: 'trigger-event', kind: 'event' })];
  const bundle = /\bbundles?\b/.test(req.lower);
  const [name, flow]: [string, Flow] =
    req.data === 'hl7'
      ? ['message', { type: 'text', kind: 'hl7' }]
      : req.data === 'x12'
        ? [req.x12 === '835' ? 'remittance' : 'claims', { type: 'text', kind: 'x12', x12: req.x12 }]
        : req.data === 'csv'
          ? ['csv', { type: 'text', kind: 'csv' }]
          : req.data === 'note'
            ? ['note', { type: 'text', kind: 'note' }]
            : req.data === 'fhir'
              ? bundle
                ? ['bundle', { type: 'fhir-bundle', kind: 'fhir', bundle: /\bcollection\b/.test(req.lower) ? 'collection' : 'transaction' }]
                : ['resource', { type: 'json', kind: 'fhir' }]
              : ['data', { type: 'json', kind: 'json' }];
  fields[name] = flow.type;
  return [at(name, flow)];
}

const isValidator = (type: string) => doesJob(type, 'validate');
/** The node type of a pipeline's outputs. */
const OUTPUT = plannedWhere((p) => p.role === 'output')[0]!;
const DEIDENTIFIERS = plannedWhere((p) => p.jobs?.includes('deidentify')).sort();

/** The clause of the request around a position: between the punctuation before and after it. */
function clauseAt(text: string, at: number): string {
  const before = Math.max(-1, ...[...text.slice(0, at).matchAll(/[,;:]|\.(?!\S)/g)].map((m) => m.index!));
  const after = text.slice(at).search(/[,;:]|\.(?!\S)/);
  return text.slice(before + 1, after < 0 ? undefined : at + after);
}

const asideKey = (type: string, req: Request): string => BEHAVIORS[type]?.asideKey?.(req.lower) ?? 'invalid';

const outputKey = (f: Flow): string =>
  f.kind === 'answer'
    ? 'answer'
    : f.type === 'fhir-bundle' || f.bundle
      ? 'bundle'
      : f.list
        ? 'items'
        : f.kind === 'fhir'
          ? 'resource'
          : f.kind === 'hl7'
            ? 'message'
            : 'result';

function nameOf(description: string): string {
  const first = description
    .trim()
    .split(/(?<=[.;:!?])\s|\n/)[0]!
    .replace(/[.;:!?]+$/, '');
  if (first.length <= 60) return first.charAt(0).toUpperCase() + first.slice(1);
  const cut = first.slice(0, 60);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 30 ? cut.lastIndexOf(' ') : 60)}…`.replace(/^./, (c) => c.toUpperCase());
}

/**
 * Plans a pipeline for a request in words, with no language model: reads the request (the data, the
 * trigger, the steps it names, values for configs), finds the nodes by catalog search, chains them from the
 * trigger to an output by port types (inserting converters where two steps do not fit), fills configs,
 * then checks the result with the engine's validator and repairs it. Deterministic: the same request and
 * connectors give the same plan.
 */
export function planPipeline(description: string, options: PlanOptions = {}): Plan {
  const reasoning: string[] = [];
  const unresolved: string[] = [];
  const req = readRequest(description);
  reasoning.push(
    `Read the request: the data is ${flowText({ type: req.data === 'json' || req.data === 'fhir' ? 'json' : 'text', kind: req.data, x12: req.x12 })}` +
      `${req.resourceTypes.length ? `; FHIR types ${req.resourceTypes.join(', ')}` : ''}` +
      `${req.threshold ? `; a threshold ${req.threshold.field} ${req.threshold.op} ${req.threshold.value}` : ''}.`,
  );
  const { steps } = chooseSteps(req, reasoning);
  const b = new Builder({ req, connectors: options.connectors ?? [], used: new Set() }, reasoning, unresolved);

  const { main, sinks, asideSteps } = orderSteps(steps, req, reasoning);
  unresolved.push(...req.missing);

  // the trigger
  const trigger = req.trigger.type;
  const triggerConfig = configure(trigger, {}, { type: 'trigger-event', kind: 'event' }, b.ctx);
  for (const f of BEHAVIORS[trigger]?.fallbacks ?? []) {
    if (triggerConfig.config[f.field] !== undefined) continue;
    triggerConfig.config[f.field] = f.value;
    unresolved.push(`${idBase(trigger)} (${trigger}) ${f.field}: ${f.why}`);
  }
  if (req.trigger.schedule?.note) unresolved.push(`${idBase(trigger)} (${trigger}) cron: ${req.trigger.schedule.note}`);
  const triggerId = b.add(trigger, triggerConfig.config, 0, 0);
  reasoning.push(`Trigger: ${trigger}, because ${req.trigger.said}${triggerConfig.filled.length ? ` (${triggerConfig.filled.join(', ')})` : ''}.`);
  const fields: Record<string, string> = {};
  const start = startPoints(req, triggerId, fields, main[0]);
  const event: Point = { node: triggerId, port: 'event', flow: { type: 'trigger-event', kind: 'event' }, col: 0, row: 0 };

  // the main chain
  let current: Point[] = start;
  const history: { point: Point; afterRouter: boolean }[] = start.map((point) => ({ point, afterRouter: false }));
  const asides: { placed: Placed; step: Step }[] = [];
  let passedRouter = false;
  for (const step of main) {
    const from = BEHAVIORS[step.type]!.role === 'source' ? [...current.filter((p) => p.node !== triggerId), event] : current;
    const placed = b.attach(step.type, from);
    if (!placed) continue;
    if (isRouter(step) || BEHAVIORS[step.type]!.aside) asides.push({ placed, step });
    if (isRouter(step)) passedRouter = true;
    if (placed.out) {
      current = [placed.out];
      history.push({ point: placed.out, afterRouter: passedRouter });
    }
  }
  const mainEnd = current[0]!;

  // sinks: after the latest point that takes them; one said of all the data ("write every result…") goes before the routing
  const sinkResults: Placed[] = [];
  const sentAside = new Set<string>();
  for (const sink of sinks) {
    const clause = clauseAt(req.lower, sink.at);
    // "send claims with errors to…": the sink takes what the validator puts aside
    const rejects = /\b(with errors|invalid|rejected|failed|failing|that fail|bad ones)\b/.test(clause)
      ? asides.find((a) => a.placed.aside && isValidator(a.step.type) && !sentAside.has(a.placed.id))
      : undefined;
    if (rejects) {
      sentAside.add(rejects.placed.id);
      b.attach(sink.type, [{ ...rejects.placed.aside!, row: b.newRow() }]);
      reasoning.push(`${sink.type} takes what ${rejects.placed.id} sets aside, as the request says ("${clause.trim()}").`);
      continue;
    }
    const ofAll = /\b(all|every|everything|each)\b/.test(clause) && !/\b(else|others|the rest|remaining)\b/.test(clause);
    const all = history.filter((h) => !h.afterRouter || !ofAll).map((h) => h.point);
    const data = all.filter((p) => p.flow.kind !== 'event');
    // the latest point a way leads from (converters included), so the sink gets the data as far as it went
    const candidates = (data.length ? data : all).reverse();
    const from = candidates.find((p) => b.routes(sink.type, p)) ?? candidates[0]!;
    const placed = b.attach(sink.type, [from]);
    if (placed) sinkResults.push(placed);
    if (placed && from.flow.kind === 'event' && req.trigger.event === 'schedule') {
      unresolved.push(
        `${placed.id} (${sink.type}) gets only the schedule's event: the request names nothing the catalog can read the data from; ` +
          `add the node that reads it before ${placed.id}`,
      );
    }
  }

  // what a router or a validator sends aside: the "otherwise" steps, else an output of its own
  const keys = new Set<string>();
  const output = (from: Point, key: string) => {
    let k = keys.has(key) ? `${from.node}_${key}` : key;
    for (let i = 2; keys.has(k); i++) k = `${from.node}_${key}_${i}`;
    keys.add(k);
    const p = b.position(from.node);
    const id = b.add(OUTPUT, { key: k }, p.col + 1, from.row, { id: k === 'result' ? 'out' : `out_${k}`.replace(/[^A-Za-z0-9_]/g, '_') });
    b.connect(from, id, 'value');
  };
  let elseDone = false;
  for (const { placed, step } of asides) {
    if (!placed.aside || sentAside.has(placed.id)) continue;
    const routes = isRouter(step);
    if (routes && !elseDone && asideSteps.length) {
      elseDone = true;
      let at: Point[] = [{ ...placed.aside, row: b.newRow() }];
      let last: Placed | null = null;
      for (const s of asideSteps) {
        const p = b.attach(s.type, at, at[0]!.row);
        if (p?.out && BEHAVIORS[s.type]!.role !== 'sink') at = [p.out];
        if (p) last = p;
      }
      if (last?.out) output(last.out, asideKey(step.type, req));
      continue;
    }
    const validator = isValidator(step.type);
    if (routes || validator || req.keepsRejects) output({ ...placed.aside, row: b.newRow() }, asideKey(step.type, req));
    for (const more of placed.more) output({ ...more, row: b.newRow() }, more.port);
  }

  if (req.keepsRejects) for (const { type, point } of b.converterAsides) output({ ...point, row: b.newRow() }, asideKey(type, req));

  // the output
  const atEnd = sinkResults.find((s) => s.from === mainEnd.node);
  if (atEnd?.out) output(atEnd.out, 'result');
  else output(mainEnd, outputKey(mainEnd.flow));
  // the manual trigger declares the input the plan takes from it (its port and type)
  if (b.connections.some((c) => c.source === triggerId && fields[c.source_port])) {
    const node = b.nodes.find((n) => n.id === triggerId)!;
    node.config = { ...node.config, fields };
  }

  const agentNode = b.nodes.find((n) => BEHAVIORS[n.type]?.externalModel);
  if (agentNode && ['hl7', 'x12', 'fhir'].includes(req.data) && !b.nodes.some((n) => DEIDENTIFIERS.includes(n.type))) {
    const add = `add ${DEIDENTIFIERS.join(' or ')} before it`;
    const outside = "patient data reaches the agent's model without de-identification; if that model runs outside this server";
    unresolved.push(`${agentNode.id} (${agentNode.type}): ${outside}, ${add}`);
  }
  const { def, report } = repair({ nodes: b.nodes, connections: b.connections }, reasoning, unresolved);
  reasoning.push(
    report.valid
      ? `Checked with the engine's validator: ${validText(report.warnings)}.`
      : `The validator still finds errors: ${report.errors.map((e) => `${e.node_id ?? 'pipeline'}: ${e.message}`).join('; ')}.`,
  );
  if (!report.valid) unresolved.push(...report.errors.map((e) => `${e.node_id ?? 'pipeline'}: ${e.message}`));
  return { pipeline: { name: nameOf(description), nodes: def.nodes, connections: def.connections }, reasoning, unresolved };
}
