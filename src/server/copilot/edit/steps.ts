import type { Capability } from '@/engine/node-plan';
import { BEHAVIORS, plannedWhere } from '../planner/behaviors';
import { searchNodes } from '../planner/catalog';
import type { Flow } from '../planner/flow';
import { readRequest } from '../planner/read';

/**
 * The kind of step a phrase asks for ("strip the patient identifiers", "look up missing code displays", "claim
 * checks"), as candidate node types; which one is placed depends on the data where it goes (HL7 v2 is de-identified by
 * the node made for HL7 v2, FHIR by the one made for FHIR). Read in this order: the words of a node that is not a sink
 * (its descriptor's `plan.edit.cue`; the one said first wins), words asking to de-identify or validate, the words of a
 * sink (where the data goes), words asking to convert, parse or extract; then the generator's cues on the phrase, and
 * the catalog search as a last resort. The jobs are the planner's own vocabulary; the nodes doing one are those whose
 * plan answers it.
 */
const answering = (capability: Capability) => () => plannedWhere((p) => p.answers?.[capability]);

const JOBS_BEFORE_SINKS: [RegExp, () => string[]][] = [
  [
    /\bde-?identif\w*|\banonymi[sz]\w*|\bpseudonymi[sz]\w*|\bredact\w*|\b(strip|remove|scrub)\w* (out )?(the )?(phi|(patient )?identifiers|names)\b/,
    answering('deidentify'),
  ],
  [/\bvalidat\w*|\bverif\w*|\bconformance\b|\bcheck\w* (it|them|the (fhir|bundle|resources?))\b/, answering('validate')],
];
const JOBS_AFTER_SINKS: [RegExp, () => string[]][] = [
  [/\bto fhir\b|\bconvert\w*/, answering('to-fhir')],
  [/\bparse\w*\b/, () => plannedWhere((p) => p.parses)],
  [/\bextract\w*|\bpull\w* out\b/, answering('extract-fields')],
];

/** Node types whose edit cue is set, sinks or not, in catalog order. */
const cued = (sinks: boolean) => plannedWhere((p) => p.edit?.cue && (p.role === 'sink') === sinks);

export interface StepAsk {
  /** Node types that would do it, best first. */
  types: string[];
  /** The words that said it. */
  said: string;
}

/** The node whose edit cue the phrase says first (ties: catalog order). */
function saidFirst(p: string, types: string[]): StepAsk | undefined {
  let best: { at: number; type: string; said: string } | undefined;
  for (const type of types) {
    const m = BEHAVIORS[type]!.edit!.cue!.exec(p);
    if (m && (!best || m.index < best.at)) best = { at: m.index, type, said: m[0] };
  }
  return best && { types: [best.type], said: best.said };
}

function jobSaid(p: string, jobs: [RegExp, () => string[]][]): StepAsk | undefined {
  for (const [re, types] of jobs) {
    const m = re.exec(p);
    if (m) return { types: types(), said: m[0] };
  }
  return undefined;
}

/** The step a phrase asks for; undefined when it names none the catalog has. */
export function stepAsked(phrase: string): StepAsk | undefined {
  const p = phrase.toLowerCase();
  const asked = saidFirst(p, cued(false)) ?? jobSaid(p, JOBS_BEFORE_SINKS) ?? saidFirst(p, cued(true)) ?? jobSaid(p, JOBS_AFTER_SINKS);
  if (asked) return asked;
  const want = readRequest(phrase).wants[0];
  if (want) {
    const doing = plannedWhere((pl) => pl.answers?.[want.what as Capability]);
    return { types: doing.length ? doing : [want.what], said: want.said };
  }
  const hit = searchNodes(phrase).find((h) => h.score >= 14 && BEHAVIORS[h.type]?.role !== 'trigger');
  return hit ? { types: [hit.type], said: hit.matched.join(', ') } : undefined;
}

/**
 * Candidates in the order that suits the data: first those made for it (`plan.madeFor`: HL7 v2 nodes on HL7 v2, FHIR
 * nodes on FHIR) or that suit the value (`plan.suits`: a filter a list), last those made for it that say they do not
 * suit it; the catalog's order otherwise.
 */
export function forFlow(types: string[], flow: Flow): string[] {
  const score = (t: string) => {
    const plan = BEHAVIORS[t];
    if (plan?.madeFor) return plan.madeFor !== flow.kind ? 1 : plan.suits?.(flow) === false ? 2 : 0;
    return plan?.suits?.(flow) ? 0 : 1;
  };
  return [...types].sort((a, b) => score(a) - score(b));
}
