import { BEHAVIORS, CONVERTERS, doesJob, plannedWhere } from './behaviors';
import type { Flow } from './flow';
import type { Request } from './read';

/**
 * What may go between two steps whose values do not fit: catalog nodes that turn one kind of value into
 * another (parse, convert, type a FHIR value by validating it, split a Bundle), and a few configured
 * transforms the catalog has no node of its own for (a collection Bundle into a transaction, CSV rows into
 * FHIR resources, notes as text).
 */
export interface Converter {
  key: string;
  type: string;
  /** A readable id base for the node it adds, and a name when it is a configured transform. */
  id?: string;
  name?: string;
  takes(f: Flow): boolean;
  /** Only before node types this accepts (text for a model is no use to a database). */
  only?: (type: string) => boolean;
  config(f: Flow, req: Request): Record<string, unknown>;
  gives(f: Flow, config: Record<string, unknown>): Flow;
  /** Why it is there, for the reasoning. */
  why: string;
}

const BUNDLE_TO_TRANSACTION = [
  '{"resourceType": "Bundle", "type": "transaction", "entry": [entry[$exists(resource)].{"fullUrl":',
  'fullUrl, "resource": resource, "request": {"method": "POST", "url": resource.resourceType}}]}',
].join(' ');
const LIST_TO_TRANSACTION =
  '{"resourceType": "Bundle", "type": "transaction", "entry": [$.{"resource": $, "request": {"method": "POST", "url": resourceType}}]}';
const FOR_MODELS = (type: string) => doesJob(type, 'ai');

/** The node types that run a JSONata expression and JavaScript (their plan's `runs`), for the configured transforms. */
const runnerOf = (language: 'jsonata' | 'javascript'): string => {
  const type = plannedWhere((p) => p.runs?.language === language)[0];
  if (!type) throw new Error(`no node type runs ${language}`);
  return type;
};
const JSONATA = runnerOf('jsonata');
const JAVASCRIPT = runnerOf('javascript');
/** The config of a runner for a program: the program in the field its plan names. */
const runner = (type: string, program: string) => ({ [BEHAVIORS[type]!.runs!.field]: program });
const NOTES_TO_TEXT = '($notes := $join(**.attachment.data.$base64decode($), "\\n\\n"); $notes ? $notes : $join(**.div, "\\n\\n"))';

/** CSV rows → a transaction Bundle of the resource type the request names, columns guessed from its words. */
function rowsToFhir(req: Request): string {
  const type = req.resourceTypes.find((t) => ['Patient', 'Observation', 'Condition', 'Encounter', 'Immunization'].includes(t)) ?? 'Patient';
  const resource: Record<string, string> = {
    Patient: [
      '{"resourceType": "Patient", "identifier": [{"system": "urn:mrn", "value": $string(mrn)}], "name":',
      '[{"family": family, "given": [given]}], "birthDate": birth_date, "gender": $lowercase(gender)}',
    ].join(' '),
    Observation: [
      '{"resourceType": "Observation", "status": "final", "code": {"coding": [{"system": "http://loinc.org", "code": $string(loinc), "display":',
      'test}], "text": test}, "subject": {"reference": "Patient/" & patient_id}, "valueQuantity": {"value": $number(value), "unit": unit}}',
    ].join(' '),
    Condition: '{"resourceType": "Condition", "code": {"text": condition}, "subject": {"reference": "Patient/" & patient_id}}',
    Encounter: [
      '{"resourceType": "Encounter", "status": "finished", "class": {"system":',
      '"http://terminology.hl7.org/CodeSystem/v3-ActCode", "code": "AMB"}, "subject": {"reference": "Patient/" & patient_id}}',
    ].join(' '),
    Immunization: [
      '{"resourceType": "Immunization", "status": "completed", "vaccineCode": {"text":',
      'vaccine}, "patient": {"reference": "Patient/" & patient_id}, "occurrenceDateTime": date}',
    ].join(' '),
  };
  return `{"resourceType": "Bundle", "type": "transaction", "entry": [$.{"resource": ${resource[type]}, "request": {"method": "POST", "url": "${type}"}}]}`;
}

const generic = (type: string): Converter => {
  const b = BEHAVIORS[type]!;
  return {
    key: type,
    type,
    takes: (f) => b.takes?.(f) ?? true,
    config: (f) => b.adapt?.(f) ?? {},
    gives: (f, c) => b.gives!(f, c),
    why: b.converter!,
  };
};

export const ALL_CONVERTERS: Converter[] = [
  ...CONVERTERS.map(generic),
  {
    key: 'to-transaction',
    type: JSONATA,
    id: 'to_transaction',
    name: 'To a transaction Bundle',
    takes: (f) => f.kind === 'fhir' && (Boolean(f.list) || (f.type === 'fhir-bundle' && f.bundle !== 'transaction' && f.bundle !== 'batch')),
    config: (f) => runner(JSONATA, f.list ? LIST_TO_TRANSACTION : BUNDLE_TO_TRANSACTION),
    gives: () => ({ type: 'json', kind: 'fhir', bundle: 'transaction' }),
    why: 'a FHIR server takes a transaction Bundle, not a collection or a list: each resource becomes a POST entry',
  },
  {
    key: 'rows-to-fhir',
    type: JSONATA,
    id: 'rows_to_fhir',
    name: 'Rows to FHIR',
    takes: (f) => (f.kind === 'csv' || f.kind === 'json') && Boolean(f.list),
    config: (_f, req) => runner(JSONATA, rowsToFhir(req)),
    gives: () => ({ type: 'json', kind: 'fhir', bundle: 'transaction' }),
    why: 'maps each CSV row to a FHIR resource in a transaction Bundle (check the column names against your file)',
  },
  {
    key: 'notes-text',
    only: FOR_MODELS,
    type: JSONATA,
    id: 'note_text',
    name: 'Note text',
    takes: (f) => f.kind === 'fhir',
    config: () => runner(JSONATA, NOTES_TO_TEXT),
    gives: () => ({ type: 'json', kind: 'note' }),
    why: 'takes the text of the notes (attachments decoded, or the narrative) for the model',
  },
  {
    key: 'hl7-text',
    only: FOR_MODELS,
    type: JSONATA,
    id: 'message_text',
    name: 'Message text',
    takes: (f) => f.kind === 'hl7' && f.type === 'hl7v2-message',
    config: () => runner(JSONATA, '$join($append($hl7all($, "OBX-5"), $hl7all($, "NTE-3")), "\\n")'),
    gives: () => ({ type: 'json', kind: 'note' }),
    why: 'the text of the message (OBX-5 values and NTE comments) for the model',
  },
  {
    key: 'json-text',
    only: FOR_MODELS,
    type: JSONATA,
    id: 'as_text',
    name: 'As text',
    takes: (f) => f.kind === 'json' || f.kind === 'csv',
    config: () => runner(JSONATA, '$string($)'),
    gives: () => ({ type: 'json', kind: 'note' }),
    why: 'the rows as text for the model',
  },
  {
    key: 'as-text',
    type: JAVASCRIPT,
    id: 'body_text',
    name: 'Body as text',
    takes: (f) => f.type === 'json' && ['hl7', 'x12', 'csv', 'note'].includes(f.kind),
    config: () => runner(JAVASCRIPT, "return typeof input === 'string' ? input : (input && (input.message || input.text)) || JSON.stringify(input);"),
    gives: (f) => ({ type: 'text', kind: f.kind }),
    why: 'a webhook body arrives as JSON: the text inside it goes on',
  },
];
