import type { Kind } from './flow';
import { readSchedule, type Schedule } from './cron';
import type { TriggerEventKind } from '@/engine/node-descriptor';
import { BEHAVIORS, connectorTypeOf, plannedWhere, triggerTypeOf } from './behaviors';
import { anyOf, inRow } from '@/engine/node-plan';
import { NODE_DESCRIPTORS, connectorTypeOf as connectorOf } from '@/engine/nodes/descriptors';

/** What the planner reads out of a request, before it looks at the catalog's ports. */
export interface Request {
  text: string;
  lower: string;
  /** What arrives at the trigger. */
  data: Kind;
  x12?: '837' | '835';
  /** The outside event that starts it (`manual`: an execute request), and the trigger node type that takes it. */
  trigger: { event: TriggerEventKind; type: string; said: string; schedule?: Schedule; port?: number };
  /** Steps the request asks for, each with where it is said (to keep the request's order). */
  wants: Want[];
  resourceTypes: string[];
  quoted: string[];
  urls: string[];
  threshold?: { field: string; op: '>' | '<' | '>=' | '<='; value: number };
  /** Where the request starts saying what happens to the rest ("otherwise…"), if it does. */
  elseAt: number | null;
  /** Whether the request cares about what is rejected (errors, invalid, quarantine…). */
  keepsRejects: boolean;
  fields: string[];
  table?: string;
  /** Things asked for that no node of the catalog does (email, fax…). */
  missing: string[];
}

export interface Want {
  /** A node type, or a capability resolved by the data: `validate`, `deidentify`, `to-fhir`, `keep-matching`… */
  what: string;
  at: number;
  said: string;
}

const FHIR_TYPES = [
  'Patient',
  'Encounter',
  'Observation',
  'Condition',
  'MedicationRequest',
  'MedicationStatement',
  'Medication',
  'Procedure',
  'Immunization',
  'AllergyIntolerance',
  'DiagnosticReport',
  'DocumentReference',
  'Practitioner',
  'Organization',
  'Location',
  'Claim',
  'ExplanationOfBenefit',
  'Coverage',
  'Appointment',
  'ServiceRequest',
  'CarePlan',
  'Device',
  'Specimen',
];

const SYNONYMS: [RegExp, string][] = [
  [/\bpatients?\b|\bdemographics\b/, 'Patient'],
  [/\bencounters?\b|\bvisits?\b|\badmissions?\b/, 'Encounter'],
  [/\bobservations?\b|\blab results?\b|\blabs\b|\bvitals?\b|\bvital signs\b/, 'Observation'],
  [/\bconditions?\b|\bdiagnos[ie]s\b|\bproblems?\b/, 'Condition'],
  [/\bmedication requests?\b|\bprescriptions?\b|\bmedications?\b/, 'MedicationRequest'],
  [/\bprocedures?\b/, 'Procedure'],
  [/\bimmuni[sz]ations?\b|\bvaccin\w*/, 'Immunization'],
  [/\ballerg\w*/, 'AllergyIntolerance'],
  [/\bdiagnostic reports?\b/, 'DiagnosticReport'],
  [/\bclinical notes?\b|\bdocuments?\b|\bdocument references?\b/, 'DocumentReference'],
  [/\bpractitioners?\b|\bproviders?\b|\bclinicians?\b/, 'Practitioner'],
  [/\bexplanation ?of ?benefits?\b|\beobs?\b/, 'ExplanationOfBenefit'],
];

/**
 * Cues: what a phrase of the request asks for. Capabilities (`validate`, `to-fhir`…) the data resolves to a node
 * type (select.ts); each node type's own words are its descriptor's `plan.cue`. The catalog search adds the rest.
 */
const CUES: [RegExp, string][] = [
  [/\b(to|into|as|in)\s+fhir\b|\bfhir (bundles?|resources?|r4)\b|\bconvert\w*|\bmap\w* [^.]{0,20}fhir|\bfhir[^.]{0,30}\b(server|store|ehr)/, 'to-fhir'],
  [
    new RegExp(
      String.raw`\bcheck\w* [^.]{0,30}\bfor (errors|problems|issues|mistakes)\b|\bis (this|it|the|my|our) [^.?]{0,30}\bvalid\b|` +
        String.raw`\bwhat('s| is) wrong\b|\bvalidat\w*|\bverif\w*|\bcheck\w* (them |it |each \w+ |the \w+ )?(against|` +
        String.raw`for conformance)\b|\bconformance\b|\bscrub\w*|\bclaim edits?\b|\bus core\b`,
    ),
    'validate',
  ],
  [
    new RegExp(
      String.raw`\bde-?identif\w*|\banonymi[sz]\w*|\bpseudonymi[sz]\w*|\bredact\w*|\b(strip|remove)\w* (out )?(the )?(phi|` +
        String.raw`identifiers|patient identifiers|names)|\bsafe harbor\b|\bresearch\b|\bhipaa\b`,
    ),
    'deidentify',
  ],
  [
    new RegExp(
      String.raw`\b(extract|pull|pulls|pulling|get|grab|select|take)\w*( out)? (the )?(patient'?s? )?(mrn|name|birth ?date|dob|` +
        String.raw`gender|fields?|values?|obx|results?|identifiers?)\b`,
    ),
    'extract-fields',
  ],
  [/\b(extract|identify|pull out|find|capture)\w* (the )?(conditions|medications|problems|diagnoses|problem list)\b/, 'extract-clinical'],
  [/\bllm\b|\blanguage model\b|\bgpt\b|\bclaude\b|\bai model\b/, 'ai'],
  [
    anyOf(
      /\bfilter\w*|\bonly (keep|the|active|final|those|rows|records|patients|observations|messages)\b|\bexclud\w*/,
      /\b(drop|remove|discard)\w* (the )?(rows|records|those|resources|everything|all)\b|\bkeep only\b/,
      /\bkeep (the |only the )?\w+ (where|with|that|whose)\b|\bskip (the )?(rows|records)\b/,
    ),
    'keep-matching',
  ],
  [
    anyOf(
      /\babnormal|\bcritical|\bout[- ]of[- ]range\b|\bpanic\b|\burgent\b|\bescalat\w*|\bflag\w*|\bdeceased\b|\bpositive\b/,
      inRow(
        /\b(above|over|greater than|higher than|exceed\w*|below|under|less than|lower than)\s+\d+/,
        /(?!\d|\.\d|\s*(words?|sentences?|characters?|chars|tokens?|minutes?|hours?|days?|seconds?)\b)/,
      ),
      /[<>]=?\s*\d|\bif (the|it|a|an|its|their|they)\b/,
    ),
    'test',
  ],
];

/** The words that ask for each node type, from its descriptor. */
const NODE_CUES: [RegExp, string][] = plannedWhere((p) => p.cue).map((type) => [BEHAVIORS[type]!.cue!, type]);

const LISTEN = new RegExp(
  String.raw`\bfrom port \d+\b|\b(listen|receiv|incoming|inbound|arriv|coming in|comes? in|accept|` +
    String.raw`feed)\w*[^.]{0,50}\bmllp\b|\bmllp\b[^.]{0,30}\b(listener|feed|inbound|port\s*\d+)|\bmllp (in|listener)\b|` +
    String.raw`\blisten\w* on port\b`,
);
const WEBHOOK = /\bwebhooks?\b|\bcallbacks?\b|\b(receive|accept)s?\b[^.]{0,40}\bhttps? (post|request)s?\b|\bposted to (us|our)\b/;

function dataOf(text: string, lower: string): { data: Kind; x12?: '837' | '835' } {
  const x12 =
    /\b835\b|\bremittances?\b|\bera\b|\bpayments?\b|\beobs?\b/.test(lower) && !/\b837/.test(lower)
      ? '835'
      : /\b837|\bclaims?\b/.test(lower)
        ? '837'
        : undefined;
  if (
    /\bhl7\b|\bhl7v2\b|\bv2\b|\badt\b|\boru\b|\borm\b|\boml\b|\bsiu\b|\bvxu\b|\bmdm\b|\bdft\b|\bmllp\b|\ba0[1-8]\b/.test(lower) ||
    /\b(OUL|OMG|BAR|RDE|RDS|REF|PPR|MFN|RGV|RAS)\b/.test(text)
  )
    return { data: 'hl7' };
  if (
    /\bx12\b|\bedi\b|\b83[457]\w*|\b27[0-7]\b|\bclaims? (files?|intake|batch)|\bremittances?\b/.test(lower) &&
    (!/\bfhir claims?\b/.test(lower) || /\b83[57]\w*|\bx12\b|\bedi\b/.test(lower))
  )
    return { data: 'x12', x12 };
  if (/\bcsv\b|\btsv\b|\bspreadsheet\b|\bflat files?\b|\bdelimited\b/.test(lower)) return { data: 'csv' };
  const fhirSource = new RegExp(
    String.raw`\bfrom (the |our |a )?(fhir|ehr)\b|(?<!\b(?:into|to|as)\s(?:\w+\s)?)\bfhir (bundles?|resources?|` +
      String.raw`documentreference|server for)\b|\b(pull|fetch|query|search|poll|read|get)\w* [^.]{0,40}\b(fhir|ehr)\b|\bbulk\b`,
  ).test(lower);
  if (
    new RegExp(
      String.raw`\bnotes?\b|\bfree[- ]text\b|\bnarratives?\b|\bdictations?\b|\btranscripts?\b|\bdischarge summar\w*|` +
        String.raw`\bclinical text\b|\breports? text\b|\breferrals?\b|\bmessages?\b`,
    ).test(lower) &&
    !fhirSource
  )
    return { data: 'note' };
  if (/\bfhir\b|\bbundles?\b|\bresources?\b/.test(lower) || SYNONYMS.some(([re]) => re.test(lower))) return { data: 'fhir' };
  return { data: 'json' };
}

function triggerOf(text: string, lower: string): Request['trigger'] {
  const t = triggerEvent(text, lower);
  return { ...t, type: triggerTypeOf(t.event) };
}

function triggerEvent(text: string, lower: string): Omit<Request['trigger'], 'type'> {
  const port = lower.match(/\bport\s*(\d{2,5})\b/);
  if (LISTEN.test(lower)) return { event: 'mllp', said: 'messages arrive over MLLP', ...(port ? { port: Number(port[1]) } : {}) };
  const schedule = readSchedule(text);
  if (schedule) return { event: 'schedule', said: `a schedule: ${schedule.said}`, schedule };
  if (/\bschedule[ds]?\b(?! (messages?|appointments?|system))|\bcron\b|\bpoll\w*|\bperiodic\w*/.test(lower)) {
    return { event: 'schedule', said: 'a schedule with no interval given (hourly)', schedule: { cron: '0 * * * *', said: 'hourly' } };
  }
  if (WEBHOOK.test(lower)) return { event: 'webhook', said: 'an outside system posts to a webhook' };
  return { event: 'manual', said: 'no schedule, webhook or MLLP feed named: started by hand or through the API' };
}

function thresholdOf(lower: string): Request['threshold'] {
  const m = lower.match(
    new RegExp(
      String.raw`\b([a-z][a-z0-9]*(?: [a-z][a-z0-9]*)?)\s+(?:is\s+|are\s+|values?\s+)?(above|over|greater than|higher than|` +
        String.raw`exceeds?|exceeding|>=|>|below|under|less than|lower than|<=|<)\s*(-?\d+(?:\.\d+)?)`,
    ),
  );
  if (!m || /^\s*(words?|sentences?|characters?|tokens?|minutes?|hours?|days?)\b/.test(lower.slice((m.index ?? 0) + m[0].length))) return undefined;
  const op = /above|over|greater|higher|exceed|>/.test(m[2]!) ? (m[2] === '>=' ? '>=' : '>') : m[2] === '<=' ? '<=' : '<';
  const words = m[1]!.split(' ').filter((w) => !['a', 'the', 'with', 'where', 'when', 'if', 'is', 'its', 'and', 'rows', 'those'].includes(w));
  const field = words.filter((w) => !['value', 'values', 'results', 'result', 'level', 'levels'].includes(w)).pop() ?? words.pop() ?? 'value';
  return { field, op, value: Number(m[3]) };
}

const FIELD_WORDS = [
  'mrn',
  'name',
  'family name',
  'last name',
  'given name',
  'first name',
  'birth date',
  'birthdate',
  'date of birth',
  'dob',
  'gender',
  'sex',
  'address',
  'zip',
  'postal code',
  'phone',
  'email',
  'status',
  'code',
  'onset',
  'identifier',
];

/** The sink that calls an HTTP API (its connector field's type), named where the request asks for a channel no node has. */
const API_CALL = plannedWhere((p) => p.role === 'sink').find((t) => connectorTypeOf(t) === 'http');

/** The node that sends email (the one whose connector is a mail server), by its catalog name. */
const EMAIL = NODE_DESCRIPTORS.find((d) => connectorOf(d.id) === 'smtp')?.name;

export function readRequest(text: string): Request {
  const lower = text.toLowerCase();
  const { data, x12 } = dataOf(text, lower);
  const wants: Want[] = [];
  // a node named by its own words comes before a capability said at the same place (the sort below keeps this order)
  for (const [re, what] of [...NODE_CUES, ...CUES]) {
    const m = re.exec(lower);
    if (m) wants.push({ what, at: m.index, said: m[0].trim().slice(0, 60) });
  }
  // "…into ExplanationOfBenefit resources": a FHIR type as the target is a conversion to FHIR
  const intoType = new RegExp(`\\b(into|to|as) (fhir )?(${FHIR_TYPES.join('|')})s?\\b`, 'i').exec(text);
  if (intoType && !wants.some((w) => w.what === 'to-fhir')) wants.push({ what: 'to-fhir', at: intoType.index, said: intoType[0] });
  const types = new Set<string>();
  for (const t of FHIR_TYPES) if (new RegExp(`\\b${t}s?\\b`).test(text)) types.add(t);
  for (const [re, t] of SYNONYMS) if (re.test(lower)) types.add(t);
  const elseMatch = /\b(otherwise|else|normal ones|the rest|all others|everything else|others go|remaining)\b/.exec(lower);
  // the "otherwise" part starts with the clause that says it ("…; write everything else to…")
  const elseAt = elseMatch ? Math.max(0, ...[...lower.slice(0, elseMatch.index).matchAll(/[;,.:]|\bwhile\b|\bbut\b/g)].map((m) => m.index! + 1)) : null;
  const table =
    lower.match(/\b(?:table|into|in)\s+[`"']?([a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*)[`"']?/) ??
    lower.match(/\b(?:the\s+)?[`"']?([a-z_][a-z0-9_]*)[`"']?\s+table\b/) ??
    lower.match(/\btable\s+[`"']?([a-z_][a-z0-9_.]*)[`"']?/);
  return {
    text,
    lower,
    data,
    ...(x12 ? { x12 } : {}),
    trigger: triggerOf(text, lower),
    wants: wants.sort((a, b) => a.at - b.at),
    resourceTypes: [...types],
    quoted: [...text.matchAll(/["“'‘]([^"”'’]{2,60})["”'’]/g)].map((m) => m[1]!),
    urls: [...text.matchAll(/https?:\/\/[^\s"'<>)]+[^\s"'<>).,;]/g)].map((m) => m[0]),
    threshold: thresholdOf(lower),
    elseAt,
    keepsRejects: /\b(invalid|reject\w*|error\w*|quarantin\w*|malformed|fail\w*|bad|dead[- ]letter|review queue|work queue)\b/.test(lower),
    missing: [
      // send-email exists (issue 30) but has no plan block yet: the planner leaves it to the person, and says so
      ...(/\be-?mail\w*/.test(lower)
        ? [`email: the copilot does not place ${EMAIL ?? 'an email'} node yet; add it from the palette with an SMTP connector`]
        : []),
      ...(/\bfax\w*/.test(lower) ? [`fax: no node sends faxes; add an ${API_CALL} to your fax service's API`] : []),
      ...(/\bsms\b|\btext message/.test(lower) ? [`SMS: no node sends text messages; add an ${API_CALL} to your SMS provider's API`] : []),
      ...(/\bsftp\b|\bftp\b|\bs3\b|\bfile share\b|\bfolder\b/.test(lower)
        ? ["files: no node reads or writes files (SFTP, S3, folders); start the pipeline with the file's content (API or webhook)"]
        : []),
    ],
    fields: FIELD_WORDS.filter((f) => new RegExp(`\\b${f}s?\\b`).test(lower)),
    ...(table && !['the', 'a', 'our', 'fhir'].includes(table[1]!) ? { table: table[1] } : {}),
  };
}
