import type { CapabilityAnswer, CapabilityAsk, ChosenStep } from '@/engine/node-plan';
import { BEHAVIORS, connectorTypeOf, doesJob, plannedWhere, shareJob } from './behaviors';
import { descriptor, searchNodes, type SearchHit } from './catalog';
import type { Flow } from './flow';
import type { Request, Want } from './read';

export interface Step {
  type: string;
  at: number;
  said: string;
  /** On the branch of what a router sends aside ("otherwise…"). */
  aside?: boolean;
}

const DATA_WORDS = new Set([
  'pid',
  'obx',
  'nte',
  'msh',
  'pv1',
  'obr',
  'hl7',
  'hl7v2',
  'v2',
  'fhir',
  'r4',
  'x12',
  'edi',
  'adt',
  'oru',
  'orm',
  'oml',
  'siu',
  'vxu',
  'mdm',
  '837',
  '835',
  '834',
  'message',
  'messages',
  'bundle',
  'resource',
  'resources',
  'claim',
  'claims',
  'patient',
  'patients',
  'server',
  'mllp',
  'text',
  'json',
]);

/** Node types that talk to a FHIR server: a request that asks for one is about FHIR. */
const FHIR_SERVER = new Set(plannedWhere(() => true).filter((t) => connectorTypeOf(t) === 'fhir'));

const wantsFhir = (req: Request) => /\bfhir\b/.test(req.lower) || req.wants.some((w) => w.what === 'to-fhir' || FHIR_SERVER.has(w.what));

const EVENT: Flow = { type: 'trigger-event', kind: 'event' };

const DROPPABLE = plannedWhere((p) => p.dropWhen);

/** The node types that answer each capability, in catalog order. */
const ANSWERS = new Map<string, { type: string; answer: CapabilityAnswer }[]>();
for (const type of plannedWhere((p) => p.answers)) {
  for (const [capability, answer] of Object.entries(BEHAVIORS[type]!.answers!)) ANSWERS.set(capability, [...(ANSWERS.get(capability) ?? []), { type, answer }]);
}

/**
 * A capability (`validate`, `deidentify`, `to-fhir`, `keep-matching`, `ai`…) as the node type that does it for this data, by
 * the descriptors' `answers` (one that fits, else a fallback that does); a node type asked for by its own words as
 * itself; null: none needed.
 */
function resolve(w: Want, req: Request, chosen: Set<string>): { type: string; why: string } | null {
  const answers = ANSWERS.get(w.what);
  if (!answers) return { type: w.what, why: '' };
  const ask: CapabilityAsk = {
    lower: req.lower,
    data: req.data,
    x12: req.x12,
    clause: req.lower.slice(w.at).split(/[,;.]| and | then | before | if /)[0]!,
    near: req.lower.slice(Math.max(0, w.at - 40), w.at + 20),
    fhir: wantsFhir(req),
    doing: (job) => [...chosen].some((t) => doesJob(t, job)),
    itemsFromSource: [...chosen].some((t) => BEHAVIORS[t]!.role === 'source' && Boolean(BEHAVIORS[t]!.gives?.(EVENT, {}).list)),
  };
  const fits = (fallback: boolean) => answers.find((a) => Boolean(a.answer.fallback) === fallback && a.answer.when(ask));
  const a = fits(false) ?? fits(true);
  return a ? { type: a.type, why: a.answer.why } : null;
}

/**
 * The steps of the pipeline: what the request's cues ask for (capabilities resolved by the data), plus node
 * types the catalog search finds by rare words of their names and keywords, without two of the same job.
 */
export function chooseSteps(req: Request, reasoning: string[]): { steps: Step[]; hits: SearchHit[] } {
  const chosen = new Set<string>();
  const steps: Step[] = [];
  const wants = [...req.wants].sort((a, b) => (a.what === 'ai' ? 1 : 0) - (b.what === 'ai' ? 1 : 0) || a.at - b.at);
  const said: string[] = [];
  for (const w of wants) {
    const r = resolve(w, req, chosen);
    if (!r || chosen.has(r.type)) continue;
    chosen.add(r.type);
    steps.push({ type: r.type, at: w.at, said: w.said });
    said.push(`"${w.said}" → ${r.type}${r.why ? ` (${r.why})` : ''}`);
  }
  const dropped = drop(steps, chosen, req);
  // a step that is always preceded by another (FHIR validated before it is written: the write's own check stops a
  // bad one; the validator routes it aside)
  for (const step of [...steps]) {
    const pre = BEHAVIORS[step.type]!.precededBy;
    if (!pre || chosen.has(pre.type)) continue;
    chosen.add(pre.type);
    steps.push({ type: pre.type, at: step.at, said: pre.said });
    said.push(`${step.type} → ${pre.type} before it, ${pre.why}`);
  }
  // raw CSV or X12 means nothing unparsed; HL7 v2 neither when nothing else is asked of it
  const parser = plannedWhere((p) => p.parses?.data === req.data)[0];
  if (parser && !chosen.has(parser) && (!BEHAVIORS[parser]!.parses!.alone || steps.length === 0)) {
    chosen.add(parser);
    steps.push({ type: parser, at: 0, said: req.data });
    said.push(`the data is ${req.data} → ${parser}`);
  }
  const hits = searchNodes(req.text);
  for (const h of hits.slice(0, 6)) {
    const b = BEHAVIORS[h.type];
    // nodes that the cues place, or that the data asks for, are not added by a search hit
    if (!b || b.search === false || chosen.has(h.type) || dropped.has(h.type) || h.score < 14) continue;
    // words that name the data (HL7, FHIR, ADT…) match many nodes; a hit needs a word of what the node does
    if (!h.matched.some((m) => !DATA_WORDS.has(m))) continue;
    // one node of a job (validate, de-identify, parse…) is enough
    if ([...chosen].some((t) => shareJob(h.type, t))) continue;
    if (b.role !== 'step' || descriptor(h.type).side_effect === 'write') continue;
    const at = Math.min(...h.matched.map((m) => req.lower.indexOf(m)).filter((i) => i >= 0));
    chosen.add(h.type);
    steps.push({ type: h.type, at: Number.isFinite(at) ? at : req.lower.length, said: h.matched.join(', ') });
    said.push(`catalog search: ${h.type} (matched ${h.matched.slice(0, 4).join(', ')})`);
  }
  reasoning.push(
    `Catalog search, best matches: ${
      hits
        .slice(0, 5)
        .map((h) => `${h.type} ${h.score}`)
        .join(', ') || 'none'
    }.`,
  );
  reasoning.push(said.length ? `Steps asked for: ${said.join('; ')}.` : 'The request names no step the catalog has: the plan passes the input to the output.');
  return { steps, hits };
}

/** Steps that another chosen step makes redundant, or that a cue matched on a phrase meant for another: each planned type's `dropWhen`, in catalog order. */
function drop(steps: Step[], chosen: Set<string>, req: Request): Set<string> {
  const dropped = new Set<string>();
  const seen = (s: Step): ChosenStep => ({ type: s.type, plan: BEHAVIORS[s.type]!, at: s.at, said: s.said, connector: connectorTypeOf(s.type) });
  for (const type of DROPPABLE) {
    const step = steps.find((s) => s.type === type);
    if (!step) continue;
    const ask = { lower: req.lower, data: req.data, trigger: req.trigger.event, step: seen(step), others: steps.filter((s) => s !== step).map(seen) };
    if (!BEHAVIORS[type]!.dropWhen!(ask)) continue;
    dropped.add(type);
    steps.splice(steps.indexOf(step), 1);
    chosen.delete(type);
  }
  return dropped;
}
