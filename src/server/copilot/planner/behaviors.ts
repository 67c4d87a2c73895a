import type { Flow } from './flow';

/**
 * How each node type takes part in a data flow, beyond its port types: the port the flow enters and
 * leaves by, what the value must be (an HL7 parser wants HL7 text, not any text), the config that fits the
 * flow (a Bundle makes fhir-write a transaction), and what comes out. Port types themselves are read from
 * the catalog (the descriptor's ports for the config) and checked with `portsFit`.
 */
export interface Behavior {
  /** The input the flow enters by; none for a trigger. */
  input?: string;
  /** The output the flow goes on from. */
  output?: string;
  /** An output that takes the rest aside (invalid, false, rejected), routed to its own output when it fires. */
  aside?: string;
  role: 'trigger' | 'source' | 'step' | 'sink' | 'output';
  /**
   * Where in a pipeline the node belongs: sources 1, parsers 2, work on raw messages 3, conversion to FHIR 4,
   * validation 4.4, de-identification 4.5, the rest 5 (in the order the request gives), sinks 7.
   */
  stage: number;
  takes?(f: Flow): boolean;
  adapt?(f: Flow): Record<string, unknown>;
  gives?(f: Flow, config: Record<string, unknown>): Flow;
}

const isFhir = (f: Flow) => f.kind === 'fhir';
const fhirTyped = (f: Flow) => (f.type === 'fhir-bundle' ? 'bundle' : f.type === 'fhir-resource' ? 'resource' : 'any');
const pass = (f: Flow) => f;

export const BEHAVIORS: Record<string, Behavior> = {
  'manual-trigger': { role: 'trigger', stage: 0 },
  'schedule-trigger': { role: 'trigger', stage: 0 },
  'webhook-trigger': { role: 'trigger', stage: 0 },
  'mllp-listener-trigger': { role: 'trigger', stage: 0 },

  'fhir-query': { role: 'source', stage: 1, input: 'params', output: 'bundle', gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'searchset' }) },
  'fhir-bulk-export': { role: 'source', stage: 1, input: 'start', output: 'resources', gives: () => ({ type: 'json', kind: 'fhir', list: true }) },
  'postgres-query': { role: 'source', stage: 1, input: 'input', output: 'rows', gives: () => ({ type: 'json', kind: 'json', list: true }) },

  'hl7v2-parse': { role: 'step', stage: 2, input: 'text', output: 'message', aside: 'invalid', takes: (f) => f.kind === 'hl7' && f.type === 'text', gives: () => ({ type: 'hl7v2-message', kind: 'hl7' }) },
  'x12-parse': { role: 'step', stage: 2, input: 'text', output: 'interchange', aside: 'invalid', takes: (f) => f.kind === 'x12' && f.type === 'text', gives: (f) => ({ type: 'x12-interchange', kind: 'x12', x12: f.x12 }) },
  'csv-parse': { role: 'step', stage: 2, input: 'text', output: 'rows', takes: (f) => f.kind === 'csv' && f.type === 'text', gives: () => ({ type: 'json', kind: 'csv', list: true }) },

  'hl7v2-deidentify': { role: 'step', stage: 3, input: 'message', output: 'message', takes: (f) => f.kind === 'hl7', gives: pass },
  'claim-validate': { role: 'step', stage: 3, input: 'interchange', output: 'valid', aside: 'invalid', takes: (f) => f.kind === 'x12' && f.x12 !== '835', gives: pass },
  'hl7v2-ack': { role: 'step', stage: 6, input: 'message', output: 'text', takes: (f) => f.kind === 'hl7', gives: () => ({ type: 'text', kind: 'hl7' }) },
  'hl7v2-serialize': { role: 'step', stage: 6, input: 'message', output: 'text', takes: (f) => f.kind === 'hl7', gives: () => ({ type: 'text', kind: 'hl7' }) },

  'hl7v2-to-fhir': { role: 'step', stage: 4, input: 'message', output: 'bundle', aside: 'invalid', takes: (f) => f.kind === 'hl7', gives: (_f, c) => ({ type: 'fhir-bundle', kind: 'fhir', bundle: String(c.bundle_type ?? 'transaction') }) },
  'x12-837-to-fhir': { role: 'step', stage: 4, input: 'interchange', output: 'bundle', takes: (f) => f.kind === 'x12' && f.x12 !== '835', gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'collection' }) },
  'x12-835-to-fhir': { role: 'step', stage: 4, input: 'interchange', output: 'bundle', takes: (f) => f.kind === 'x12' && f.x12 === '835', gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'collection' }) },
  'clinical-extract': { role: 'step', stage: 4, input: 'text', output: 'bundle', takes: (f) => f.kind === 'note' || f.kind === 'answer', gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'collection' }) },

  'fhir-validate': {
    role: 'step',
    stage: 4.4,
    input: 'resource',
    output: 'valid',
    aside: 'invalid',
    takes: (f) => isFhir(f) && !f.list,
    adapt: (f) => (f.type === 'json' ? { expect: f.bundle ? 'bundle' : 'resource' } : fhirTyped(f) === 'any' ? {} : { expect: fhirTyped(f) }),
    gives: (f, c) => ({ ...f, type: c.expect === 'bundle' ? 'fhir-bundle' : c.expect === 'resource' ? 'fhir-resource' : f.type }),
  },
  'fhir-deidentify': {
    role: 'step',
    stage: 4.5,
    input: 'resource',
    output: 'resource',
    takes: (f) => isFhir(f) && !f.list,
    adapt: (f) => (fhirTyped(f) === 'any' ? {} : { expect: fhirTyped(f) }),
    gives: pass,
  },
  'terminology-lookup': { role: 'step', stage: 5, input: 'value', output: 'value', takes: (f) => isFhir(f) && !f.list, gives: pass },
  'fhir-bundle-split': { role: 'step', stage: 5, input: 'bundle', output: 'resources', takes: (f) => f.type === 'fhir-bundle', gives: () => ({ type: 'json', kind: 'fhir', list: true }) },
  'fhirpath-extract': {
    role: 'step',
    stage: 5,
    input: 'resource',
    output: 'values',
    takes: (f) => isFhir(f) && !f.list,
    adapt: (f) => (f.type === 'fhir-bundle' ? { each_entry: true } : {}),
    gives: (_f, c) => ({ type: 'json', kind: 'json', list: c.each_entry === true }),
  },
  'json-schema-validate': { role: 'step', stage: 4.4, input: 'value', output: 'valid', aside: 'invalid', takes: (f) => f.kind !== 'note' && f.type !== 'text', gives: pass },
  condition: { role: 'step', stage: 5, input: 'value', output: 'true', aside: 'false', gives: pass },
  switch: { role: 'step', stage: 5, input: 'value', gives: pass },
  filter: { role: 'step', stage: 5, input: 'items', output: 'kept', aside: 'rejected', takes: (f) => Boolean(f.list), gives: pass },
  'jsonata-transform': { role: 'step', stage: 5, input: 'input', output: 'output', takes: (f) => f.type !== 'text', gives: (f) => ({ type: 'json', kind: f.kind === 'fhir' ? 'fhir' : 'json', list: f.list }) },
  code: { role: 'step', stage: 5, input: 'input', output: 'output', gives: (f) => ({ type: 'json', kind: f.kind, list: f.list }) },

  summarize: { role: 'step', stage: 5.5, input: 'text', output: 'summary', takes: (f) => (f.type === 'text' && !['hl7', 'x12', 'csv'].includes(f.kind)) || f.kind === 'note', gives: () => ({ type: 'text', kind: 'answer' }) },
  'llm-prompt': { role: 'step', stage: 5.5, input: 'input', output: 'text', gives: () => ({ type: 'text', kind: 'answer' }) },
  agent: { role: 'step', stage: 5.5, input: 'input', output: 'output', gives: () => ({ type: 'text', kind: 'answer' }) },

  'fhir-write': {
    role: 'sink',
    stage: 7,
    input: 'resource',
    output: 'result',
    takes: (f) => isFhir(f) && !f.list && (f.type !== 'fhir-bundle' || f.bundle === 'transaction' || f.bundle === 'batch'),
    adapt: (f) => ({ operation: f.type === 'fhir-bundle' || (f.type !== 'fhir-resource' && f.bundle) ? 'transaction' : 'create' }),
  },
  'postgres-write': { role: 'sink', stage: 7, input: 'rows', output: 'result', takes: (f) => f.type !== 'text' && !(f.kind === 'fhir' && (f.type === 'fhir-bundle' || f.bundle)) },
  'http-request': { role: 'sink', stage: 7, input: 'body', output: 'response' },
  'hl7v2-mllp-send': { role: 'sink', stage: 7, input: 'message', output: 'ack', takes: (f) => f.kind === 'hl7' },
  'pipeline-output': { role: 'output', stage: 8, input: 'value' },
};

/** Node types the planner may put between two steps whose ports or values do not fit. */
export const CONVERTERS = ['hl7v2-parse', 'x12-parse', 'csv-parse', 'hl7v2-to-fhir', 'x12-837-to-fhir', 'x12-835-to-fhir', 'fhir-validate', 'fhir-bundle-split', 'hl7v2-serialize'];
