/**
 * The copilot's evaluation set (issue 10): realistic requests, each with checks on the pipeline planned for
 * it and, where one fits, a sample input to dry-run it with. Samples are files of the shared sample data
 * (../shared/data, paths relative to it), read as they are; a few small inline texts where the data has none
 * (CSV, a dictated note). `scripts/eval-copilot.ts` runs them.
 */

export interface EvalChecks {
  /** The trigger's node type. */
  trigger?: string;
  /** Node types the pipeline must have. */
  nodes?: string[];
  /** Node types it must not have. */
  absent?: string[];
  /** [source type, target type]: a connection from a node of the one to a node of the other. */
  connections?: [string, string][];
  /** Node types that must come in this order along the connections (each downstream of the one before). */
  order?: string[];
  /** Config values: the first node of `type` has `equals` at `path` (dotted). */
  config?: { type: string; path: string; equals: unknown }[];
}

export type EvalSample =
  /** A text file (HL7 v2, X12) of the shared data. */
  | { file: string }
  /** Resources of an NDJSON file of the shared data: the first one, a Bundle of the first `take`, or a list. */
  | { ndjson: string; take?: number; as: 'resource' | 'transaction' | 'collection' | 'list' }
  | { text: string };

export interface EvalRequest {
  id: string;
  request: string;
  connectors?: { name: string; type: string }[];
  checks: EvalChecks;
  sample?: EvalSample;
}

const HL7 = (name: string) => ({ file: `hl7v2/messages/${name}` });
const X12 = (path: string) => ({ file: `x12/${path}` });
const FHIR = [{ name: 'Hospital FHIR', type: 'fhir' }];
const TWO_FHIR = [
  { name: 'EHR', type: 'fhir' },
  { name: 'Research FHIR', type: 'fhir' },
];

const LAB_CSV = ['patient_id,loinc,test,value,unit,abnormal_flag', '123,2823-3,Potassium,6.4,mmol/L,H', '123,2345-7,Glucose,98,mg/dL,N', '456,2823-3,Potassium,4.1,mmol/L,N'].join('\n');
const PATIENT_CSV = ['mrn,family,given,birth_date,gender', 'A1001,Smith,Anna,1980-02-14,female', 'A1002,Jones,Robert,1955-11-02,male'].join('\n');
const NOTE =
  'Patient is a 67 year old man admitted with chest pain. History of hypertension and type 2 diabetes. ' +
  'Started aspirin 81 mg po daily and lisinopril 10 mg po daily. BP 150/95 mmHg. Denies fever. Plan: stress test tomorrow.';

export const EVAL_REQUESTS: EvalRequest[] = [
  // ADT feeds to FHIR servers
  {
    id: 'adt-mllp-to-fhir',
    request: 'Receive ADT messages over MLLP on port 2575, convert them to FHIR, validate them and write them to the FHIR server.',
    connectors: FHIR,
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-to-fhir', 'fhir-validate', 'fhir-write'],
      absent: ['hl7v2-mllp-send'],
      order: ['mllp-listener-trigger', 'hl7v2-to-fhir', 'fhir-validate', 'fhir-write'],
      config: [
        { type: 'mllp-listener-trigger', path: 'port', equals: 2575 },
        { type: 'fhir-write', path: 'operation', equals: 'transaction' },
        { type: 'fhir-write', path: 'connector', equals: 'Hospital FHIR' },
      ],
    },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'adt-manual-to-fhir',
    request: 'Convert an HL7 v2 ADT A01 message into a FHIR R4 transaction bundle and return it.',
    checks: {
      trigger: 'manual-trigger',
      nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'pipeline-output'],
      connections: [['hl7v2-parse', 'hl7v2-to-fhir'], ['manual-trigger', 'hl7v2-parse']],
      config: [{ type: 'manual-trigger', path: 'fields.message', equals: 'text' }],
    },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'adt-deid-research',
    request: 'Take ADT admissions from our MLLP feed, convert to FHIR, de-identify them and store them in the "Research FHIR" server for research.',
    connectors: TWO_FHIR,
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-to-fhir', 'fhir-deidentify', 'fhir-write'],
      order: ['hl7v2-to-fhir', 'fhir-deidentify', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'connector', equals: 'Research FHIR' }],
    },
    sample: HL7('ADT-A04-01.hl7'),
  },
  {
    id: 'adt-webhook',
    request: 'When the registration system posts an ADT message to our webhook, parse it, convert it to FHIR and write it to the EHR.',
    connectors: FHIR,
    checks: { trigger: 'webhook-trigger', nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-write'], order: ['webhook-trigger', 'hl7v2-parse', 'hl7v2-to-fhir', 'fhir-write'] },
    sample: HL7('ADT-A08-01.hl7'),
  },
  {
    id: 'adt-forward-mllp',
    request: 'Listen for ADT messages on MLLP port 6661 and forward every message to the downstream lab system over MLLP.',
    connectors: [{ name: 'Lab LIS', type: 'hl7-mllp' }],
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-mllp-send'],
      connections: [['mllp-listener-trigger', 'hl7v2-mllp-send']],
      config: [
        { type: 'mllp-listener-trigger', path: 'port', equals: 6661 },
        { type: 'hl7v2-mllp-send', path: 'connector', equals: 'Lab LIS' },
      ],
    },
    sample: HL7('ADT-A03-01.hl7'),
  },
  {
    id: 'adt-deid-forward',
    request: 'De-identify incoming HL7 v2 ADT messages (HIPAA Safe Harbor) and send them over MLLP to the analytics interface engine.',
    connectors: [{ name: 'Analytics engine', type: 'hl7-mllp' }],
    checks: { nodes: ['hl7v2-parse', 'hl7v2-deidentify', 'hl7v2-mllp-send'], absent: ['fhir-deidentify', 'hl7v2-to-fhir'], order: ['hl7v2-parse', 'hl7v2-deidentify', 'hl7v2-mllp-send'] },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'adt-switch-type',
    request: 'Parse HL7 messages and route them by message type: ADT to one output, ORU to another.',
    checks: { nodes: ['hl7v2-parse', 'switch'], connections: [['hl7v2-parse', 'switch']], config: [{ type: 'switch', path: 'cases.0.expression', equals: 'message_type = "ADT"' }] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'adt-validate-uscore',
    request: 'Convert ADT messages to FHIR and validate the Patient against US Core before returning the bundle; send invalid ones to a separate output.',
    checks: {
      nodes: ['hl7v2-to-fhir', 'fhir-validate', 'pipeline-output'],
      connections: [['hl7v2-to-fhir', 'fhir-validate']],
      config: [{ type: 'fhir-validate', path: 'profile', equals: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient' }],
    },
    sample: HL7('ADT-A01-01.hl7'),
  },
  // lab results with abnormal-value routing
  {
    id: 'oru-abnormal-route',
    request: 'Receive ORU lab results over MLLP, convert them to FHIR, and route results with abnormal values to a review output; otherwise write them to the FHIR server.',
    connectors: FHIR,
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-to-fhir', 'condition', 'fhir-write'],
      order: ['hl7v2-to-fhir', 'condition', 'fhir-write'],
    },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'oru-potassium-alert',
    request: 'For ORU results, alert the on-call team by posting to https://alerts.example.org/hooks/lab when potassium is above 6.',
    checks: {
      nodes: ['hl7v2-parse', 'condition', 'http-request'],
      order: ['hl7v2-parse', 'condition', 'http-request'],
      config: [{ type: 'http-request', path: 'url', equals: 'https://alerts.example.org/hooks/lab' }],
    },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'oru-critical-fhir',
    request: 'Convert lab result messages (HL7 ORU) to FHIR and keep only critical observations, returning them.',
    checks: { nodes: ['hl7v2-to-fhir', 'filter'], order: ['hl7v2-to-fhir', 'filter', 'pipeline-output'] },
    sample: HL7('LAB-ORU-1.hl7'),
  },
  {
    id: 'oru-terminology',
    request: 'Convert ORU messages to FHIR, fill in missing code displays with a terminology lookup and write the results to the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['hl7v2-to-fhir', 'terminology-lookup', 'fhir-write'], order: ['hl7v2-to-fhir', 'terminology-lookup', 'fhir-write'] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'oru-abnormal-hl7',
    request: 'Forward HL7 lab results with abnormal flags over MLLP to the clinician inbox system.',
    connectors: [{ name: 'Inbox', type: 'hl7-mllp' }],
    checks: { nodes: ['hl7v2-parse', 'condition', 'hl7v2-mllp-send'], order: ['hl7v2-parse', 'condition', 'hl7v2-mllp-send'], absent: ['hl7v2-to-fhir'] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'labs-csv-threshold',
    request: 'Import a CSV of lab results and filter the rows where value is above 5, returning them.',
    checks: { nodes: ['csv-parse', 'filter'], order: ['csv-parse', 'filter', 'pipeline-output'], config: [{ type: 'filter', path: 'expression', equals: '$number(value) > 5' }] },
    sample: { text: LAB_CSV },
  },
  // claims intake 837/835
  {
    id: 'claims-837-intake',
    request: 'Claims intake: parse incoming 837 claim files, run claim edits, convert valid claims to FHIR and send rejected ones to a work queue output.',
    checks: {
      nodes: ['x12-parse', 'claim-validate', 'x12-837-to-fhir'],
      order: ['x12-parse', 'claim-validate', 'x12-837-to-fhir'],
      connections: [['claim-validate', 'pipeline-output']],
    },
    sample: X12('837_005010X222A2/demo.example1.837'),
  },
  {
    id: 'claims-837-fhir-write',
    request: 'Convert 837 professional claims to FHIR Claim resources and write them to the payer FHIR server.',
    connectors: [{ name: 'Payer FHIR', type: 'fhir' }],
    checks: { nodes: ['x12-parse', 'x12-837-to-fhir', 'fhir-write'], order: ['x12-parse', 'x12-837-to-fhir', 'fhir-write'], config: [{ type: 'fhir-write', path: 'operation', equals: 'transaction' }] },
    sample: X12('837_005010X222A2/demo.example2.837'),
  },
  {
    id: 'remit-835',
    request: 'Parse 835 remittance files and convert the payments into FHIR ExplanationOfBenefit resources.',
    checks: { nodes: ['x12-parse', 'x12-835-to-fhir'], absent: ['x12-837-to-fhir', 'claim-validate'], connections: [['x12-parse', 'x12-835-to-fhir']] },
    sample: X12('835_005010X221A1/managed-care.835'),
  },
  {
    id: 'remit-835-warehouse',
    request: 'Every night at 1am, read the 835 remittances from the "payer-sftp" endpoint and load the EOBs into the warehouse table billing.remittances.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { trigger: 'schedule-trigger', nodes: ['postgres-write'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 1 * * *' }, { type: 'postgres-write', path: 'table', equals: 'billing.remittances' }] },
  },
  {
    id: 'claims-webhook-scrub',
    request: 'When the billing system posts an 837 to our webhook, scrub the claims and return the issues.',
    checks: { trigger: 'webhook-trigger', nodes: ['x12-parse', 'claim-validate'], order: ['webhook-trigger', 'x12-parse', 'claim-validate'] },
    sample: X12('837_005010X222A2/demo.example7.837'),
  },
  {
    id: 'claims-837i',
    request: 'Validate institutional 837I claims and convert them to FHIR.',
    checks: { nodes: ['x12-parse', 'claim-validate', 'x12-837-to-fhir'], order: ['claim-validate', 'x12-837-to-fhir'] },
    sample: X12('837_005010X223A3/institutional-claim.837i'),
  },
  // de-identified research exports
  {
    id: 'bulk-deid-export',
    request: 'Nightly bulk export of Patient, Condition and Encounter from the EHR, de-identify everything and write it to the research FHIR server.',
    connectors: TWO_FHIR,
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-bulk-export', 'fhir-deidentify', 'fhir-write'],
      order: ['fhir-bulk-export', 'fhir-deidentify', 'fhir-write'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 2 * * *' },
        { type: 'fhir-bulk-export', path: 'connector', equals: 'EHR' },
        { type: 'fhir-write', path: 'connector', equals: 'Research FHIR' },
      ],
    },
  },
  {
    id: 'deid-bundle',
    request: 'De-identify a FHIR bundle for a research dataset, shifting dates by up to 30 days, and return it.',
    checks: { nodes: ['fhir-deidentify'], absent: ['hl7v2-deidentify'], config: [{ type: 'fhir-deidentify', path: 'date_shift_days', equals: 30 }] },
    sample: { ndjson: 'synthea-10/Condition.000.ndjson', take: 5, as: 'collection' },
  },
  {
    id: 'deid-patient',
    request: 'Anonymize a FHIR Patient resource before sharing it with researchers.',
    checks: { trigger: 'manual-trigger', nodes: ['fhir-deidentify', 'pipeline-output'], connections: [['fhir-deidentify', 'pipeline-output']] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  {
    id: 'deid-warehouse',
    request: 'Weekly on Sunday at 3am, query Conditions from the FHIR server, de-identify them and insert them into the research database table research.conditions.',
    connectors: [...FHIR, { name: 'research-db', type: 'postgres' }],
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'fhir-deidentify', 'postgres-write'],
      order: ['fhir-query', 'fhir-deidentify', 'postgres-write'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 3 * * 0' },
        { type: 'postgres-write', path: 'table', equals: 'research.conditions' },
      ],
    },
  },
  {
    id: 'deid-then-llm',
    request: 'De-identify clinical notes from the FHIR server and then summarize them with an LLM.',
    connectors: FHIR,
    checks: { nodes: ['fhir-query', 'fhir-deidentify', 'summarize'], order: ['fhir-query', 'fhir-deidentify', 'summarize'] },
  },
  // scheduled FHIR polling
  {
    id: 'poll-15min-labs',
    request: 'Every 15 minutes, poll the FHIR server for new lab Observations and return them.',
    connectors: FHIR,
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '*/15 * * * *' },
        { type: 'fhir-query', path: 'connector', equals: 'Hospital FHIR' },
      ],
      connections: [['schedule-trigger', 'fhir-query']],
    },
  },
  {
    id: 'poll-daily-6',
    request: 'Every day at 6, fetch active Conditions from the EHR and write a flat extract of code and status to the warehouse.',
    connectors: [...FHIR, { name: 'warehouse', type: 'postgres' }],
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'postgres-write'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 6 * * *' }] },
  },
  {
    id: 'poll-weekdays',
    request: 'On weekdays at 7:30 am, search the FHIR server for Encounters and summarize them.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'summarize'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '30 7 * * 1-5' }] },
  },
  {
    id: 'poll-hourly-split',
    request: 'Hourly, query the FHIR server for Patients, split the bundle and extract the MRN, name and birth date of each.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'fhirpath-extract'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 * * * *' }] },
  },
  {
    id: 'poll-cron-literal',
    request: 'Run on the cron schedule "0 */4 * * *" in America/Chicago time: read Immunizations from the FHIR server and validate them.',
    connectors: FHIR,
    checks: {
      nodes: ['fhir-query', 'fhir-validate'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 */4 * * *' },
        { type: 'schedule-trigger', path: 'timezone', equals: 'America/Chicago' },
      ],
    },
  },
  // agent-assisted triage, AI
  {
    id: 'triage-agent',
    request: 'Agent-assisted triage: send each incoming referral note to our triage agent and route urgent ones to an urgent output.',
    checks: { nodes: ['agent', 'condition'], order: ['agent', 'condition'] },
    sample: { text: 'Referral: 54 year old woman with new onset chest pain at rest, diaphoresis. Please see urgently.' },
  },
  {
    id: 'triage-webhook-agent',
    request: 'When a nurse line call summary is posted to our webhook, ask the triage agent for a disposition and return its answer.',
    checks: { trigger: 'webhook-trigger', nodes: ['agent', 'pipeline-output'], connections: [['agent', 'pipeline-output']] },
  },
  {
    id: 'summarize-note',
    request: 'Summarize a discharge summary note in 3 sentences focusing on medications and follow-up.',
    checks: { nodes: ['summarize', 'pipeline-output'], config: [{ type: 'summarize', path: 'max_sentences', equals: 3 }], connections: [['summarize', 'pipeline-output']] },
    sample: { text: NOTE },
  },
  {
    id: 'extract-note-fhir',
    request: 'Extract conditions and medications from free-text clinical notes into FHIR and write them to the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['clinical-extract', 'fhir-write'], order: ['clinical-extract', 'fhir-write'] },
    sample: { text: NOTE },
  },
  {
    id: 'classify-llm',
    request: 'Classify incoming patient portal messages by urgency with an LLM and return the category.',
    checks: { nodes: ['llm-prompt', 'pipeline-output'], connections: [['llm-prompt', 'pipeline-output']] },
    sample: { text: 'I have had a fever of 39.5 for three days and now a stiff neck.' },
  },
  {
    id: 'mdm-summarize',
    request: 'Summarize MDM transcription messages from the HL7 feed for the care team.',
    checks: { nodes: ['summarize'] },
    sample: HL7('MDM-T02-01.hl7'),
  },
  {
    id: 'llm-deid-first',
    request: 'Send FHIR Encounter bundles to GPT for a plain-language explanation, but remove PHI first.',
    checks: { nodes: ['fhir-deidentify', 'llm-prompt'], order: ['fhir-deidentify', 'llm-prompt'] },
    sample: { ndjson: 'synthea-10/Encounter.000.ndjson', take: 3, as: 'collection' },
  },
  // CSV imports and other data work
  {
    id: 'csv-patients-fhir',
    request: 'Import a CSV file of patients (mrn, family, given, birth date, gender) and create them on the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['csv-parse', 'fhir-write'], order: ['csv-parse', 'fhir-write'] },
    sample: { text: PATIENT_CSV },
  },
  {
    id: 'csv-schema-db',
    request: 'Parse a CSV of lab results, validate each row against a JSON schema requiring code and status, and insert the valid rows into the table lab.results.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { nodes: ['csv-parse', 'json-schema-validate', 'postgres-write'], order: ['csv-parse', 'json-schema-validate', 'postgres-write'], config: [{ type: 'postgres-write', path: 'table', equals: 'lab.results' }] },
    sample: { text: LAB_CSV },
  },
  {
    id: 'tsv-import',
    request: 'Read a tab-delimited TSV export from the registry and return the rows.',
    checks: { nodes: ['csv-parse'], config: [{ type: 'csv-parse', path: 'delimiter', equals: '\t' }] },
    sample: { text: 'mrn\tfamily\nA1\tSmith\nA2\tJones' },
  },
  {
    id: 'fhirpath-patient',
    request: 'Extract the MRN, birth date and gender from a FHIR Patient with FHIRPath.',
    checks: { nodes: ['fhirpath-extract'], config: [{ type: 'fhirpath-extract', path: 'expressions.gender', equals: 'gender' }] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  {
    id: 'validate-write-patient',
    request: 'Validate a FHIR Patient resource and create it on the FHIR server if it is valid.',
    connectors: FHIR,
    checks: { nodes: ['fhir-validate', 'fhir-write'], order: ['fhir-validate', 'fhir-write'], config: [{ type: 'fhir-write', path: 'operation', equals: 'create' }] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  {
    id: 'bundle-split-filter',
    request: 'Split a FHIR bundle and filter out everything except active Conditions.',
    checks: { nodes: ['fhir-bundle-split', 'filter'], order: ['fhir-bundle-split', 'filter'] },
    sample: { ndjson: 'synthea-10/Condition.000.ndjson', take: 10, as: 'collection' },
  },
  {
    id: 'vxu-registry',
    request: 'Convert VXU immunization messages to FHIR and post the bundle to the immunization registry API at https://iis.example.org/fhir.',
    checks: { nodes: ['hl7v2-to-fhir', 'http-request'], order: ['hl7v2-to-fhir', 'http-request'], config: [{ type: 'http-request', path: 'url', equals: 'https://iis.example.org/fhir' }] },
    sample: HL7('VXU-V04-01.hl7'),
  },
  {
    id: 'siu-ack',
    request: 'Parse SIU scheduling messages and build an ACK for each one.',
    checks: { nodes: ['hl7v2-parse', 'hl7v2-ack'], connections: [['hl7v2-parse', 'hl7v2-ack']] },
    sample: HL7('SIU-S12-01.hl7'),
  },
  {
    id: 'postgres-to-fhir',
    request: 'Every Monday at 8, read new patients from the registry database and write them to the FHIR server.',
    connectors: [...FHIR, { name: 'registry', type: 'postgres' }],
    checks: { trigger: 'schedule-trigger', nodes: ['postgres-query', 'fhir-write'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 8 * * 1' }] },
  },
  // written after the planner was tuned on the requests above, to see how it does on requests it has not seen
  {
    id: 'h-oml-order-fhir',
    request: 'When an OML lab order arrives over MLLP, convert it to FHIR and post the ServiceRequest bundle to the FHIR server.',
    connectors: FHIR,
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-to-fhir', 'fhir-write'], order: ['hl7v2-to-fhir', 'fhir-write'], config: [{ type: 'fhir-write', path: 'operation', equals: 'transaction' }] },
    sample: HL7('OML-O21-01.hl7'),
  },
  {
    id: 'h-bulk-observations',
    request: 'Every night at 11pm, export all Observations from the EHR with a bulk export and load them into the warehouse table clinical.observations.',
    connectors: [...FHIR, { name: 'warehouse', type: 'postgres' }],
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-bulk-export', 'postgres-write'],
      connections: [['fhir-bulk-export', 'postgres-write']],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 23 * * *' },
        { type: 'postgres-write', path: 'table', equals: 'clinical.observations' },
        { type: 'fhir-bulk-export', path: 'types', equals: ['Observation'] },
      ],
    },
  },
  {
    id: 'h-webhook-validate',
    request: 'Check FHIR bundles posted to our webhook against FHIR R4 and return the validation issues.',
    checks: { trigger: 'webhook-trigger', nodes: ['fhir-validate'], connections: [['webhook-trigger', 'fhir-validate'], ['fhir-validate', 'pipeline-output']] },
    sample: { ndjson: 'synthea-10/Condition.000.ndjson', take: 3, as: 'collection' },
  },
  {
    id: 'h-warehouse-summary',
    request: 'Look up the patient encounters in the warehouse database and summarize them for the clinician.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { nodes: ['postgres-query', 'summarize'], order: ['postgres-query', 'summarize'] },
  },
  {
    id: 'h-vxu-deid',
    request: 'Read VXU vaccination messages, de-identify them and return the FHIR bundle for the registry research team.',
    checks: { nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-deidentify'], order: ['hl7v2-to-fhir', 'fhir-deidentify', 'pipeline-output'] },
    sample: HL7('VXU-V04-01.hl7'),
  },
  {
    id: 'h-reports-agent',
    request: 'Every 5 minutes, fetch new DiagnosticReports from the FHIR server and ask the summarizer agent to write a short note for each.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'agent'], order: ['fhir-query', 'agent'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '*/5 * * * *' }, { type: 'fhir-query', path: 'query', equals: 'DiagnosticReport?_sort=-_lastUpdated&_count=100' }] },
  },
  {
    id: 'h-csv-immunizations',
    request: 'Take a CSV of immunizations and write them as FHIR Immunization resources to the registry FHIR server.',
    connectors: [{ name: 'Registry FHIR', type: 'fhir' }],
    checks: { nodes: ['csv-parse', 'fhir-write'], order: ['csv-parse', 'fhir-write'], config: [{ type: 'fhir-write', path: 'connector', equals: 'Registry FHIR' }] },
    sample: { text: 'patient_id,vaccine,date\n123,Influenza,2024-10-01\n456,COVID-19,2024-09-15' },
  },
  {
    id: 'h-llm-medications',
    request: 'Extract medications from dictated notes with an LLM and return them.',
    checks: { nodes: ['pipeline-output'], connections: [['manual-trigger', 'clinical-extract']] },
    sample: { text: NOTE },
  },
  {
    id: 'h-270-parse',
    request: 'Parse 270 eligibility requests and return the parsed interchange.',
    checks: { nodes: ['x12-parse'], absent: ['claim-validate', 'x12-837-to-fhir'], connections: [['x12-parse', 'pipeline-output']] },
    sample: X12('270_005010X279A1/subscriber-health-benefit-check.270'),
  },
  {
    id: 'h-deceased-registry',
    request: 'If the patient in an incoming FHIR resource is deceased, send it to the registry API at https://registry.example.org/deaths.',
    checks: { nodes: ['condition', 'http-request'], order: ['condition', 'http-request'], config: [{ type: 'http-request', path: 'url', equals: 'https://registry.example.org/deaths' }] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  {
    id: 'h-critical-agent-else',
    request: 'Route ORU messages with critical values to our triage agent; write everything else to the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['hl7v2-parse', 'condition', 'agent', 'fhir-write'], order: ['condition', 'agent'], connections: [['condition', 'agent']] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'h-siu-fhir-daily',
    request: 'Convert SIU appointment messages to FHIR Appointments and validate them.',
    checks: { nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate'], order: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate'], absent: ['schedule-trigger'] },
    sample: HL7('SIU-S12-01.hl7'),
  },
  // a second unseen batch
  {
    id: 'h2-a04-conditional',
    request: 'Register new outpatients: for each ADT A04 from the front desk, create the Patient in the FHIR server unless one with the same MRN exists.',
    connectors: FHIR,
    checks: { nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-write'], order: ['hl7v2-to-fhir', 'fhir-write'] },
    sample: HL7('ADT-A04-01.hl7'),
  },
  {
    id: 'h2-allergy-terminology',
    request: 'Fill in missing displays on AllergyIntolerance resources and return them.',
    checks: { nodes: ['terminology-lookup'], connections: [['manual-trigger', 'terminology-lookup'], ['terminology-lookup', 'pipeline-output']] },
    sample: { ndjson: 'synthea-10/AllergyIntolerance.000.ndjson', as: 'resource' },
  },
  {
    id: 'h2-834-enrollment',
    request: 'Parse 834 enrollment files from the payer and post the parsed interchange to https://hr.example.org/enrollments.',
    checks: { nodes: ['x12-parse', 'http-request'], order: ['x12-parse', 'http-request'] },
    sample: X12('834_005010X220A1/add-dependent.834'),
  },
  {
    id: 'h2-monthly-immunization-report',
    request: 'On the first of every month, query Immunizations from the FHIR server and summarize them for the quality report.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'summarize'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 0 1 * *' }, { type: 'fhir-query', path: 'query', equals: 'Immunization?_count=100' }] },
  },
  {
    id: 'h2-orm-to-lis',
    request: 'Send ORM orders received over MLLP on port 2600 to the lab LIS over MLLP and keep a FHIR copy on the server.',
    connectors: [...FHIR, { name: 'LIS', type: 'hl7-mllp' }],
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-mllp-send', 'hl7v2-to-fhir', 'fhir-write'], config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 2600 }, { type: 'hl7v2-mllp-send', path: 'connector', equals: 'LIS' }] },
    sample: HL7('ORM-O01-01.hl7'),
  },
  {
    id: 'h2-notes-deid-extract',
    request: 'De-identify DocumentReference notes from the EHR, then extract conditions and medications from them into FHIR.',
    connectors: FHIR,
    checks: { nodes: ['fhir-query', 'fhir-deidentify', 'clinical-extract'], order: ['fhir-query', 'fhir-deidentify', 'clinical-extract'] },
  },
  {
    id: 'h2-json-schema-webhook',
    request: 'Validate JSON posted to our webhook against a JSON schema requiring mrn and status, and insert valid records into the table intake.records.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { trigger: 'webhook-trigger', nodes: ['json-schema-validate', 'postgres-write'], order: ['json-schema-validate', 'postgres-write'], config: [{ type: 'postgres-write', path: 'table', equals: 'intake.records' }] },
    sample: { text: '{"mrn": "A1", "status": "new"}' },
  },
  {
    id: 'h2-glucose-csv-alert',
    request: 'Read a glucose CSV export and notify https://alerts.example.org/glucose for rows where glucose is over 300.',
    checks: { nodes: ['csv-parse', 'filter', 'http-request'], order: ['csv-parse', 'filter', 'http-request'], config: [{ type: 'filter', path: 'expression', equals: '$number(glucose) > 300' }] },
    sample: { text: 'patient_id,glucose\n1,120\n2,340' },
  },
  {
    id: 'h2-835-deid',
    request: 'Convert 835 remittances into FHIR, anonymize them and hand them to the research team.',
    checks: { nodes: ['x12-parse', 'x12-835-to-fhir', 'fhir-deidentify'], order: ['x12-835-to-fhir', 'fhir-deidentify'] },
    sample: X12('835_005010X221A1/tertiary-payment.835'),
  },
  {
    id: 'h2-patient-uscore-write',
    request: 'Check Patient resources against the US Core Patient profile and update them on the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['fhir-validate', 'fhir-write'], order: ['fhir-validate', 'fhir-write'], config: [{ type: 'fhir-validate', path: 'profile', equals: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient' }] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  // a third unseen batch
  {
    id: 'h3-rde-pharmacy',
    request: 'Pharmacy orders (RDE) come in over MLLP; convert them to FHIR MedicationRequests, check them against FHIR R4 and save them in the EHR.',
    connectors: FHIR,
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-to-fhir', 'fhir-validate', 'fhir-write'], order: ['hl7v2-to-fhir', 'fhir-validate', 'fhir-write'] },
    sample: HL7('RDE-O11-01.hl7'),
  },
  {
    id: 'h3-daily-conditions-csv',
    request: 'Each morning at 5:45, get the active Conditions from the EHR and push them to the quality dashboard API at https://quality.example.org/api/conditions.',
    connectors: FHIR,
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'http-request'],
      order: ['fhir-query', 'http-request'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '45 5 * * *' },
        { type: 'http-request', path: 'url', equals: 'https://quality.example.org/api/conditions' },
      ],
    },
  },
  {
    id: 'h3-dft-claims',
    request: 'Turn DFT charge messages into FHIR and return the bundle, with unparseable messages sent to an error output.',
    checks: { nodes: ['hl7v2-parse', 'hl7v2-to-fhir'], connections: [['hl7v2-parse', 'pipeline-output']], order: ['hl7v2-parse', 'hl7v2-to-fhir', 'pipeline-output'] },
    sample: HL7('DFT-P03-01.hl7'),
  },
  {
    id: 'h3-referral-summary-agent',
    request: 'Summarize REF referral messages and hand the summary to the referral coordinator agent.',
    checks: { nodes: ['hl7v2-parse', 'summarize', 'agent'], order: ['summarize', 'agent'] },
    sample: HL7('REF-I12-01.hl7'),
  },
  {
    id: 'h3-837-scrub-webhook-http',
    request: 'Clearinghouse webhook: receive 837 claims, run the claim scrubber and forward clean claims to https://payer.example.org/claims.',
    checks: { trigger: 'webhook-trigger', nodes: ['x12-parse', 'claim-validate', 'http-request'], order: ['x12-parse', 'claim-validate', 'http-request'] },
    sample: X12('837_005010X222A2/demo.example8.837'),
  },
  {
    id: 'h3-patient-bundle-split-write',
    request: 'Split an incoming FHIR collection bundle and create each Patient on the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['fhir-bundle-split', 'fhir-write'], order: ['fhir-bundle-split', 'fhir-write'] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', take: 3, as: 'collection' },
  },
  {
    id: 'h3-vitals-threshold',
    request: 'Flag Observations where systolic is above 180 in an incoming FHIR bundle and notify https://alerts.example.org/bp.',
    checks: { nodes: ['condition', 'http-request'], order: ['condition', 'http-request'] },
    sample: { ndjson: 'synthea-10/Condition.000.ndjson', take: 2, as: 'collection' },
  },
  {
    id: 'h3-immunization-deid-csv',
    request: 'Every Friday at 6pm, export Immunizations from the EHR, de-identify them and load them into the warehouse table research.immunizations.',
    connectors: [...FHIR, { name: 'warehouse', type: 'postgres' }],
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-deidentify', 'postgres-write'],
      order: ['fhir-deidentify', 'postgres-write'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 18 * * 5' },
        { type: 'postgres-write', path: 'table', equals: 'research.immunizations' },
      ],
    },
  },
  {
    id: 'h3-oru-ack-nak',
    request: 'Parse incoming ORU messages and reply with an AE acknowledgment when they are not valid.',
    checks: { nodes: ['hl7v2-parse', 'hl7v2-ack'] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'h3-jsonata-reshape',
    request: 'Reshape a FHIR Patient into {id, family, born} with JSONata and return it.',
    checks: { nodes: ['jsonata-transform'], connections: [['manual-trigger', 'jsonata-transform'], ['jsonata-transform', 'pipeline-output']] },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  // a fourth unseen batch
  {
    id: 'h4-a08-update-patient',
    request: 'Patient updates (ADT A08) from the hospital interface should update the Patient in our FHIR store.',
    connectors: FHIR,
    checks: { nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-write'], order: ['hl7v2-to-fhir', 'fhir-write'] },
    sample: HL7('ADT-A08-01.hl7'),
  },
  {
    id: 'h4-encounters-export-http',
    request: 'Twice a day is too often; once a day at 22:00 send yesterday\'s Encounters from the FHIR server to the analytics endpoint https://analytics.example.org/ingest.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'http-request'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 22 * * *' }] },
  },
  {
    id: 'h4-oru-deid-llm',
    request: 'Strip identifiers from ORU results, then ask an LLM to explain the results in plain language for the patient portal.',
    checks: { nodes: ['hl7v2-parse', 'llm-prompt'], order: ['hl7v2-parse', 'llm-prompt'], absent: ['agent'] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'h4-837-split-db',
    request: 'Load the claims from 837 files into the warehouse table claims.headers after converting them to FHIR Claims.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { nodes: ['x12-parse', 'x12-837-to-fhir', 'postgres-write'], order: ['x12-837-to-fhir', 'postgres-write'], config: [{ type: 'postgres-write', path: 'table', equals: 'claims.headers' }] },
    sample: X12('837_005010X222A2/demo.example12.837'),
  },
  {
    id: 'h4-medreq-terminology-validate',
    request: 'For MedicationRequest resources: look up code displays, validate against US Core MedicationRequest and return valid ones.',
    checks: {
      nodes: ['terminology-lookup', 'fhir-validate'],
      config: [{ type: 'fhir-validate', path: 'profile', equals: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-medicationrequest' }],
    },
    sample: { ndjson: 'synthea-10/MedicationRequest.000.ndjson', as: 'resource' },
  },
  {
    id: 'h4-csv-observations-uscore',
    request: 'Convert a lab CSV to FHIR Observations and post them to the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['csv-parse', 'fhir-write'], order: ['csv-parse', 'fhir-write'] },
    sample: { text: LAB_CSV },
  },
  {
    id: 'h4-vxu-ack',
    request: 'Listen on MLLP port 5000 for VXU immunization messages and convert them to FHIR bundles.',
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-to-fhir'], config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 5000 }], absent: ['hl7v2-mllp-send'] },
    sample: HL7('VXU-V04-01.hl7'),
  },
  {
    id: 'h4-bundle-to-warehouse',
    request: 'Store every resource of an incoming FHIR bundle as a row in the table fhir.resources.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { nodes: ['fhir-bundle-split', 'postgres-write'], order: ['fhir-bundle-split', 'postgres-write'], config: [{ type: 'postgres-write', path: 'table', equals: 'fhir.resources' }] },
    sample: { ndjson: 'synthea-10/Procedure.000.ndjson', take: 4, as: 'collection' },
  },
  {
    id: 'h4-note-extract-validate',
    request: 'Turn a dictated clinic note into structured FHIR resources, validate them and return the bundle.',
    checks: { nodes: ['clinical-extract', 'fhir-validate'], order: ['clinical-extract', 'fhir-validate', 'pipeline-output'] },
    sample: { text: NOTE },
  },
  {
    id: 'h4-webhook-switch-resources',
    request: 'A partner posts FHIR resources to our webhook; route Patients and Encounters to separate outputs.',
    checks: { trigger: 'webhook-trigger', nodes: ['switch'], connections: [['webhook-trigger', 'switch']] },
    sample: { ndjson: 'synthea-10/Encounter.000.ndjson', as: 'resource' },
  },
  // a fifth unseen batch, in looser words
  {
    id: 'h5-casual-adt',
    request: 'hey, can you hook up our ADT feed so new admits land in the FHIR server?',
    connectors: FHIR,
    checks: { nodes: ['hl7v2-to-fhir', 'fhir-write'], order: ['hl7v2-to-fhir', 'fhir-write'] },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'h5-research-copy',
    request: 'We need a de-identified copy of all our Conditions and Procedures in the research warehouse, refreshed every Sunday night.',
    connectors: [...FHIR, { name: 'research', type: 'postgres' }],
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-deidentify', 'postgres-write'], order: ['fhir-deidentify', 'postgres-write'] },
  },
  {
    id: 'h5-lab-critical-page',
    request: 'Page the on-call doc via https://pager.example.org/api when a lab result comes back critical.',
    checks: { nodes: ['condition', 'http-request'], order: ['condition', 'http-request'] },
    sample: HL7('ORU-R01-01.hl7'),
  },
  {
    id: 'h5-claims-fhir-casual',
    request: 'Take the 837s the clearinghouse drops on us and get them into FHIR as Claims.',
    checks: { nodes: ['x12-parse', 'x12-837-to-fhir'], order: ['x12-parse', 'x12-837-to-fhir'] },
    sample: X12('837_005010X222A2/demo.cob.example3.A.837'),
  },
  {
    id: 'h5-eob-payer-api',
    request: 'Turn incoming remittance advice into ExplanationOfBenefit resources and POST them to our billing API at https://billing.example.org/eob.',
    checks: { nodes: ['x12-parse', 'x12-835-to-fhir', 'http-request'], order: ['x12-835-to-fhir', 'http-request'] },
    sample: X12('835_005010X221A1/medicare-part-a.835'),
  },
  {
    id: 'h5-note-to-problem-list',
    request: 'From a progress note, build the problem list as FHIR Conditions.',
    checks: { nodes: ['clinical-extract'], config: [{ type: 'clinical-extract', path: 'include', equals: ['Condition'] }] },
    sample: { text: NOTE },
  },
  {
    id: 'h5-mllp-relay-deid',
    request: 'Relay HL7 from port 7000 to the research interface over MLLP, scrubbed of PHI.',
    connectors: [{ name: 'research-engine', type: 'hl7-mllp' }],
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-deidentify', 'hl7v2-mllp-send'], order: ['hl7v2-deidentify', 'hl7v2-mllp-send'], config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 7000 }] },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'h5-immunization-gaps-agent',
    request: 'Each weekday at 9, pull Immunizations from the EHR and let the immunization-gaps agent suggest what is due.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'agent'], order: ['fhir-query', 'agent'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 9 * * 1-5' }] },
  },
  {
    id: 'h5-csv-upsert',
    request: 'Upsert a spreadsheet of providers into the table ref.providers.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: { nodes: ['csv-parse', 'postgres-write'], order: ['csv-parse', 'postgres-write'], config: [{ type: 'postgres-write', path: 'mode', equals: 'upsert' }] },
    sample: { text: 'id,name\n1,Dr A\n2,Dr B' },
  },
  {
    id: 'h5-bundle-validate-only',
    request: 'Is this FHIR bundle valid? Check it and tell me what is wrong.',
    checks: { nodes: ['fhir-validate'], absent: ['fhir-write'], connections: [['fhir-validate', 'pipeline-output']] },
    sample: { ndjson: 'synthea-10/Immunization.000.ndjson', take: 3, as: 'collection' },
  },
  // a sixth unseen batch, written after the last change to the planner
  {
    id: 'h6-adt-a03-encounter',
    request: 'On every ADT discharge (A03) received over MLLP, update the Encounter in the FHIR server and return the server response.',
    connectors: FHIR,
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-to-fhir', 'fhir-write'], order: ['hl7v2-to-fhir', 'fhir-write', 'pipeline-output'] },
    sample: HL7('ADT-A03-01.hl7'),
  },
  {
    id: 'h6-oml-deid-research',
    request: 'Anonymize lab orders (OML) before they go to the research data lake API at https://lake.example.org/ingest.',
    checks: { nodes: ['hl7v2-parse', 'hl7v2-deidentify', 'http-request'], order: ['hl7v2-deidentify', 'http-request'] },
    sample: HL7('OML-O21-01.hl7'),
  },
  {
    id: 'h6-weekly-bulk-group',
    request: 'Every Saturday at 4am run a bulk export of group diabetes-cohort (Patient, Observation) from the EHR and return the counts.',
    connectors: FHIR,
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-bulk-export'], config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 4 * * 6' }, { type: 'fhir-bulk-export', path: 'group_id', equals: 'diabetes-cohort' }] },
  },
  {
    id: 'h6-837-invalid-http',
    request: 'Check 837 claims for errors before submission; send claims with errors to the billing team API https://billing.example.org/rework and return the clean ones.',
    checks: { nodes: ['x12-parse', 'claim-validate', 'http-request'], connections: [['claim-validate', 'http-request']] },
    sample: X12('837_005010X222A2/demo.example1.837'),
  },
  {
    id: 'h6-patient-demographics-csv',
    request: 'Get name, gender and birth date out of FHIR Patients from the EHR every night and write them to the table mpi.patients.',
    connectors: [...FHIR, { name: 'mpi', type: 'postgres' }],
    checks: { trigger: 'schedule-trigger', nodes: ['fhir-query', 'fhirpath-extract', 'postgres-write'], order: ['fhir-query', 'fhirpath-extract', 'postgres-write'] },
  },
  {
    id: 'h6-discharge-summary-llm',
    request: 'Write a patient-friendly discharge summary from the clinical note with an LLM in under 150 words.',
    checks: { nodes: ['pipeline-output'], connections: [['manual-trigger', 'summarize']], config: [{ type: 'summarize', path: 'max_words', equals: 150 }] },
    sample: { text: NOTE },
  },
  {
    id: 'h6-vitals-filter-high',
    request: 'From a bundle of vital signs, keep the Observations where heart rate is over 120.',
    checks: { nodes: ['fhir-bundle-split', 'filter'], order: ['fhir-bundle-split', 'filter'] },
    sample: { ndjson: 'synthea-10/Encounter.000.ndjson', take: 2, as: 'collection' },
  },
  {
    id: 'h6-siu-to-agent',
    request: 'When an appointment is booked (SIU S12), have the scheduling assistant agent draft a reminder for the patient.',
    checks: { nodes: ['agent'], absent: ['schedule-trigger'] },
    sample: HL7('SIU-S12-01.hl7'),
  },
  {
    id: 'h6-conditions-terminology-write',
    request: 'Fill in code displays on incoming Condition resources and create them on the FHIR server.',
    connectors: FHIR,
    checks: { nodes: ['terminology-lookup', 'fhir-write'], order: ['terminology-lookup', 'fhir-write'], config: [{ type: 'fhir-write', path: 'operation', equals: 'create' }] },
    sample: { ndjson: 'synthea-10/Condition.000.ndjson', as: 'resource' },
  },
  {
    id: 'h6-mllp-ack-forward',
    request: 'Accept ORM messages over MLLP on port 2576 and pass them on to the pharmacy system over MLLP.',
    connectors: [{ name: 'Pharmacy', type: 'hl7-mllp' }],
    checks: { trigger: 'mllp-listener-trigger', nodes: ['hl7v2-mllp-send'], config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 2576 }, { type: 'hl7v2-mllp-send', path: 'connector', equals: 'Pharmacy' }] },
    sample: HL7('ORM-O01-01.hl7'),
  },
];
