import type { PortType } from '@/shared/ports';

/**
 * What the copilot's planner knows of a node type, kept on its descriptor (`plan`) next to its ports and docs:
 * the ports a data flow enters and leaves by, what values it takes and gives, where in a pipeline it belongs,
 * which job it shares with others, and the words that ask for it. A node type with a `plan` is planned for
 * without the copilot naming it; one without (merge, for-each) is only placed by hand. Isomorphic.
 */

export type Kind = 'hl7' | 'x12' | 'csv' | 'note' | 'fhir' | 'json' | 'event' | 'answer';

/**
 * What flows along the pipeline at one point, as the planner follows it: the port type, and what the
 * value is (HL7 v2 text, X12, CSV, a FHIR Bundle…), which the port type alone does not say (`text` may be
 * an HL7 message or a clinical note; `json` rows or a resource).
 */
export interface Flow {
  type: PortType;
  kind: Kind;
  /** An array of items (CSV rows, resources taken out of a Bundle). */
  list?: boolean;
  /** A FHIR Bundle's type, when known: transaction, collection, searchset… */
  bundle?: string;
  /** The X12 transaction set, when the request says it: 837 or 835. */
  x12?: string;
}

/**
 * Where in a pipeline a node belongs, in order: triggers, sources, parsers, work on raw messages, conversion to
 * FHIR, checks, de-identification, the rest (in the order the request gives), language models, a test on what a
 * model answered, encoding back to a message, sinks, outputs.
 */
export const PLAN_STAGES = [
  'trigger',
  'source',
  'parse',
  'raw',
  'convert',
  'check',
  'deidentify',
  'work',
  'model',
  'after-model',
  'encode',
  'sink',
  'output',
] as const;
export type PlanStage = (typeof PLAN_STAGES)[number];

/** A stage's rank: later stages come later in the pipeline. */
export const stageRank = (stage: PlanStage): number => PLAN_STAGES.indexOf(stage);

/**
 * Steps a request asks for by what they do rather than by a node's name ("validate", "de-identify", "to FHIR"):
 * the planner's cues find the capability, and the node whose `answers` fit the data does it.
 */
export type Capability = 'to-fhir' | 'validate' | 'deidentify' | 'keep-matching' | 'test' | 'extract-fields' | 'extract-clinical' | 'ai';

/** What the planner knows when it picks the node for a capability. */
export interface CapabilityAsk {
  /** The request in lower case. */
  lower: string;
  /** What arrives at the trigger, and the X12 transaction set when the request names one. */
  data: Kind;
  x12?: string;
  /** The request from where the capability is said to the end of its clause. */
  clause: string;
  /** The words around where it is said. */
  near: string;
  /** The request speaks of FHIR, or asks for a step that reads or writes a FHIR server or converts to FHIR. */
  fhir: boolean;
  /** A step chosen so far does this job. */
  doing(job: string): boolean;
  /** A source chosen so far gives a list of items (rows, resources). */
  itemsFromSource: boolean;
}

/** How a node answers a capability: when it fits, why (for the reasoning); a fallback is taken only when no other fits. */
export interface CapabilityAnswer {
  when(ask: CapabilityAsk): boolean;
  why: string;
  fallback?: boolean;
}

/** A chosen step as another one's `dropWhen` sees it. */
export interface ChosenStep {
  type: string;
  plan: NodePlan;
  /** Where the request asks for it, and the words that did. */
  at: number;
  said: string;
  /** The connector type it uses (fhir, postgres…), if any. */
  connector?: string;
}

/** What the planner knows when it asks whether a chosen step is redundant. */
export interface DropAsk {
  lower: string;
  data: Kind;
  /** The outside event the request's trigger starts on (`mllp`, `schedule`, `webhook`; `manual`: a request). */
  trigger: string;
  /** The step asked about. */
  step: ChosenStep;
  /** The other steps chosen so far (steps dropped before this one are gone). */
  others: ChosenStep[];
}

/** What configuring a node from a request reads (the request, the flow it takes, connectors), and where it writes. */
export interface ConfigureAsk {
  text: string;
  lower: string;
  /** FHIR resource types, field names ("mrn", "birth date"), URLs and a table the request names. */
  resourceTypes: string[];
  fields: string[];
  urls: string[];
  table?: string;
  /** The schedule and port the request gives its trigger. */
  schedule?: { cron: string; timezone?: string };
  port?: number;
  /** What reaches the node. */
  flow: Flow;
  /** The organization's connectors, and the names given to nodes so far. */
  connectors: { name: string; type: string }[];
  used: Set<string>;
  /** The test the request asks for, as JSONata on the flow (per item for a list). */
  predicate(perItem: boolean): { expression: string; said: string; guessed: boolean };
  /** The cases the request routes by (message or resource type…), as JSONata. */
  switchCases(): { port: string; expression: string }[];
  /** The config to fill (what fits the flow is in already), facts read into it, and what could not be filled. */
  config: Record<string, unknown>;
  filled: string[];
  missing: string[];
}

/** The number the first group of a pattern finds in a text. */
export const digits = (re: RegExp, text: string): number | undefined => {
  const m = text.match(re);
  return m ? Number(m[1]) : undefined;
};

export interface NodePlan {
  /** What the node is in a flow. A `step` is put in the main line; sinks fan out at its end. */
  role: 'trigger' | 'source' | 'step' | 'sink' | 'output';
  /** Where it belongs; a function when that depends on what arrives at the trigger (text to FHIR on notes, or one more step). */
  stage: PlanStage | ((data: Kind) => PlanStage);
  /** The input the flow enters by; none for a trigger. */
  input?: string;
  /** The output the flow goes on from. */
  output?: string;
  /** An output that takes the rest aside (invalid, false, rejected), routed to its own output when it fires. */
  aside?: string;
  /** Whether it takes this value (an HL7 parser wants HL7 text, not any text); any value when absent. */
  takes?(f: Flow): boolean;
  /** What it keeps taking on a connection already drawn, when that is looser than `takes` (a FHIR write fed JSON). */
  keeps?(f: Flow): boolean;
  /** The config that fits the value it takes (a Bundle makes fhir-write a transaction). */
  adapt?(f: Flow): Record<string, unknown>;
  /** What comes out for what went in. */
  gives?(f: Flow, config: Record<string, unknown>): Flow;
  /** It may take HL7 v2, X12 or CSV as raw text (every other node wants it parsed first). */
  takesRaw?: boolean;
  /** Outputs that follow the config (a switch's cases): the first carries the flow on, `aside` takes what matches none. */
  branches?: { of(config: Record<string, unknown>): string[]; aside: string };
  /** It runs a program given in its config: the language and the field (the planner writes small transforms with it). */
  runs?: { language: 'jsonata' | 'javascript'; field: string };
  /** Fills its config from the request (the connector of its type is picked before, unless `ownConnector`). */
  configure?(a: ConfigureAsk): void;
  /** It picks its connector itself in `configure` (an http-request takes a URL first). */
  ownConnector?: boolean;
  /** Config the planner sets when the request gives none, said to the user (a listener's port). */
  fallbacks?: { field: string; value: unknown; why: string }[];
  /** The key of the pipeline output an edit gives its result (default: its output port's name). */
  outputKey?: string;
  /** The key of the pipeline output that takes what it sends aside (default `invalid`), by the request's words. */
  asideKey?: (lower: string) => string;
  /** Its input goes to a language model that may run outside this server whatever its config says (an agent's). */
  externalModel?: boolean;
  /** A router: `keep` keeps what passes and sends the rest aside, `branch` sends the value one way or another. */
  router?: 'keep' | 'branch';
  /** Its answer is something a router after it may test (a model's or an agent's). */
  verdict?: boolean;
  /** May be put between two steps whose values do not fit, with why (for the reasoning). */
  converter?: string;
  /** Jobs it shares with other node types: once one is chosen, a catalog-search hit on another adds nothing. */
  jobs?: string[];
  /** Whether a catalog search on the request's words may add it (default yes); no for nodes the cues place. */
  search?: boolean;
  /** The words that ask for it, as a pattern on the request in lower case. */
  cue?: RegExp;
  /** A trigger: the outputs the data arrives by, and what it is, for the data the request names; none: its config's fields. */
  starts?(data: { data: Kind; x12?: string }): { port: string; flow: Flow }[];
  /** The raw data it parses: added for that data when the request asks nothing of it; `alone`: only when nothing else is asked. */
  parses?: { data: Kind; alone?: boolean };
  /** A step it is always preceded by (a FHIR write by validation, so what the server would refuse goes aside), with why. */
  precededBy?: { type: string; said: string; why: string };
  /**
   * Whether the step, once chosen, is dropped: another chosen step makes it redundant, or its cue matched words
   * meant for another. Asked in catalog order.
   */
  dropWhen?(ask: DropAsk): boolean;
  /** The capabilities it does, and for which data. */
  answers?: Partial<Record<Capability, CapabilityAnswer>>;
  /** A source a schedule reads its data with when the request names none: the data it reads; `all` for "all of them". */
  scheduled?: { reads: Kind; all?: boolean };
  /**
   * The data it is made for, whatever its ports say (HL7 v2 nodes for HL7, FHIR nodes for FHIR, X12 nodes for X12): among
   * nodes doing one job an edit tries it first where that data flows, and a trigger output feeding it carries that data.
   */
  madeFor?: Kind;
  /**
   * Whether it suits this value better than the others doing its job (a filter a list, a condition one value); for a node
   * `madeFor` the data, `false` puts it after the others (the 837 converter on 835 remittances).
   */
  suits?(f: Flow): boolean;
  /** How an edit request speaks of it. */
  edit?: EditWords;
}

/** The words an edit request uses for a node: to ask for one to be added, and to name one the pipeline has. */
export interface EditWords {
  /** "add claim checks", "send an ack back": the request asks for this node (a sink's words are read after the others'). */
  cue?: RegExp;
  /** "after the claim edits", "before the ack": a step of this type in the pipeline; nodes sharing one pattern share the words. */
  names?: RegExp;
}

/** Names, in an edit, any of the nodes that extract (FHIRPath, clinical extraction, JSONata): one pattern, shared. */
export const EXTRACTION_NAMES = /\bfhirpath\b|\bextract(ion|ing|ed)?\b(?! (conditions|medications))/;
/** Names, in an edit, a database step, reading or writing: one pattern, shared. */
export const DATABASE_NAMES = /\bdatabase\b|\bwarehouse\b|\bpostgres\w*|\btable\b|\bdb\b|\bsql\b/;

/** The stage of a plan for the data that arrives at the trigger. */
export const stageOf = (plan: NodePlan, data: Kind): PlanStage => (typeof plan.stage === 'function' ? plan.stage(data) : plan.stage);

export const isFhir = (f: Flow) => f.kind === 'fhir';
/** A FHIR value's shape as fhir-validate and fhir-deidentify expect it. */
export const fhirTyped = (f: Flow) => (f.type === 'fhir-bundle' ? 'bundle' : f.type === 'fhir-resource' ? 'resource' : 'any');
/** The value goes on as it came. */
export const pass = (f: Flow) => f;

/** One pattern of parts in a row (a long one written in lines). */
export const inRow = (...parts: RegExp[]): RegExp => new RegExp(parts.map((p) => p.source).join(''));

/** One pattern out of alternatives (a long cue written in lines): matches where any of them does, the first listed winning. */
export const anyOf = (...patterns: RegExp[]): RegExp => new RegExp(patterns.map((p) => p.source).join('|'));
