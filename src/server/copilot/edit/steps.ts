import { searchNodes } from '../planner/catalog';
import type { Flow } from '../planner/flow';
import { readRequest } from '../planner/read';

/**
 * The kind of step a phrase asks for ("strip the patient identifiers", "look up missing code displays", "claim
 * checks"), as candidate node types in order of preference; which one is placed depends on the data where it goes
 * (HL7 v2 is de-identified by hl7v2-deidentify, FHIR by fhir-deidentify). The generator's cues read the phrase
 * first; a few phrasings of edits come before them; the catalog search is the last resort.
 */
const EDIT_CUES: [RegExp, string[]][] = [
  [/\bclaim (edits?|checks?|validation|scrub\w*)|\bscrub\w*/, ['claim-validate']],
  [/\b835\b|\bremittances?\b|\bexplanation ?of ?benefits?\b/, ['x12-835-to-fhir']],
  [/\backs?\b|\backnowledg\w*/, ['hl7v2-ack']],
  [
    /\bde-?identif\w*|\banonymi[sz]\w*|\bpseudonymi[sz]\w*|\bredact\w*|\b(strip|remove|scrub)\w* (out )?(the )?(phi|(patient )?identifiers|names)\b/,
    ['hl7v2-deidentify', 'fhir-deidentify'],
  ],
  [/\bjsonata\b|\btransform\b/, ['jsonata-transform']],
  [/\bterminolog\w*|\bcode displays?\b|\bmissing displays?\b|\bdisplays? (for|of) (the )?codes\b/, ['terminology-lookup']],
  [/\bsplit\w*\b|\bunbundl\w*/, ['fhir-bundle-split']],
  [/\bfhirpath\b/, ['fhirpath-extract']],
  [/\b(conditions|medications|problems|diagnoses)\b[^.]{0,40}\b(from|out of|in) (the )?(note|text)|\bclinical extract\w*/, ['clinical-extract']],
  [/\bagent\b/, ['agent']],
  [/\bllm\b|\bprompt\b|\bclassif\w*|\blanguage model\b/, ['llm-prompt']],
  [/\bsummar\w*/, ['summarize']],
  [/\bschema\b|\b(has|have) (an? )?\w+ and (an? )?\w+\b|\brequired fields?\b/, ['json-schema-validate']],
  [/\bvalidat\w*|\bverif\w*|\bconformance\b|\bcheck\w* (it|them|the (fhir|bundle|resources?))\b/, ['claim-validate', 'fhir-validate', 'json-schema-validate']],
  [/\bmllp\b|\blis\b|\blab system\b|\binterface engine\b/, ['hl7v2-mllp-send']],
  [/https?:\/\/|\bapi\b|\bendpoint\b|\bnotif\w*|\bhttp\b|\bslack\b|\bwebhook\b/, ['http-request']],
  [/\bpostgres\w*|\bwarehouse\b|\bdatabase\b|\btable\b|\bsql\b|\b(archive|copy)\b/, ['postgres-write']],
  [/\bfhir server\b|\behr\b|\bfhir store\b|\bhapi\b|\b(the|a|our) \w+ fhir\b|\bserver\b/, ['fhir-write']],
  [/\bto fhir\b|\bconvert\w*/, ['hl7v2-to-fhir', 'x12-837-to-fhir', 'x12-835-to-fhir', 'clinical-extract']],
  [/\bparse\w*\b/, ['hl7v2-parse', 'x12-parse', 'csv-parse']],
  [/\bextract\w*|\bpull\w* out\b/, ['fhirpath-extract', 'jsonata-transform']],
];

/** The generator's capabilities (read.ts cues) as candidate types. */
const CAPABILITY: Record<string, string[]> = {
  validate: ['claim-validate', 'fhir-validate', 'json-schema-validate'],
  deidentify: ['hl7v2-deidentify', 'fhir-deidentify'],
  'to-fhir': ['hl7v2-to-fhir', 'x12-837-to-fhir', 'x12-835-to-fhir', 'clinical-extract'],
  'keep-matching': ['filter', 'condition'],
  test: ['condition', 'filter'],
  'extract-fields': ['fhirpath-extract', 'jsonata-transform'],
  'extract-clinical': ['clinical-extract'],
  ai: ['llm-prompt'],
};

export interface StepAsk {
  /** Node types that would do it, best first. */
  types: string[];
  /** The words that said it. */
  said: string;
}

/** The step a phrase asks for; undefined when it names none the catalog has. */
export function stepAsked(phrase: string): StepAsk | undefined {
  const p = phrase.toLowerCase();
  for (const [re, types] of EDIT_CUES) {
    const m = re.exec(p);
    if (m) return { types, said: m[0] };
  }
  const want = readRequest(phrase).wants[0];
  if (want) return { types: CAPABILITY[want.what] ?? [want.what], said: want.said };
  const hit = searchNodes(phrase).find((h) => h.score >= 14 && !/trigger$/.test(h.type));
  return hit ? { types: [hit.type], said: hit.matched.join(', ') } : undefined;
}

/** Candidates in the order that suits the data: a FHIR flow puts fhir-* first, HL7 v2 hl7v2-*, X12 claim-*, x12-*. */
export function forFlow(types: string[], flow: Flow): string[] {
  const score = (t: string) => {
    if (flow.kind === 'hl7' && t.startsWith('hl7v2-')) return 0;
    if (flow.kind === 'x12' && (t.startsWith('claim-') || t.startsWith('x12-'))) return flow.x12 === '835' && t === 'x12-837-to-fhir' ? 2 : 0;
    if (flow.kind === 'fhir' && t.startsWith('fhir')) return 0;
    if ((flow.kind === 'csv' || flow.kind === 'json') && t === 'json-schema-validate') return 0;
    if (flow.list && t === 'filter') return 0;
    if (!flow.list && t === 'condition') return 0;
    return 1;
  };
  return [...types].sort((a, b) => score(a) - score(b));
}
