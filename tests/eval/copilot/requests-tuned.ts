import { type EvalRequest, HL7, X12, FHIR, TWO_FHIR, LAB_CSV, PATIENT_CSV, NOTE } from './fixtures';

/** The requests the offline planner was developed on, by theme. */
export const TUNED_REQUESTS: EvalRequest[] = [
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
      connections: [
        ['hl7v2-parse', 'hl7v2-to-fhir'],
        ['manual-trigger', 'hl7v2-parse'],
      ],
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
    checks: {
      trigger: 'webhook-trigger',
      nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-write'],
      order: ['webhook-trigger', 'hl7v2-parse', 'hl7v2-to-fhir', 'fhir-write'],
    },
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
    checks: {
      nodes: ['hl7v2-parse', 'hl7v2-deidentify', 'hl7v2-mllp-send'],
      absent: ['fhir-deidentify', 'hl7v2-to-fhir'],
      order: ['hl7v2-parse', 'hl7v2-deidentify', 'hl7v2-mllp-send'],
    },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'adt-switch-type',
    request: 'Parse HL7 messages and route them by message type: ADT to one output, ORU to another.',
    checks: {
      nodes: ['hl7v2-parse', 'switch'],
      connections: [['hl7v2-parse', 'switch']],
      config: [{ type: 'switch', path: 'cases.0.expression', equals: 'message_type = "ADT"' }],
    },
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
    request:
      'Receive ORU lab results over MLLP, convert them to FHIR, and route results with abnormal values to a review output; otherwise write them to the FHIR server.',
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
    checks: {
      nodes: ['csv-parse', 'filter'],
      order: ['csv-parse', 'filter', 'pipeline-output'],
      config: [{ type: 'filter', path: 'expression', equals: '$number(value) > 5' }],
    },
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
    checks: {
      nodes: ['x12-parse', 'x12-837-to-fhir', 'fhir-write'],
      order: ['x12-parse', 'x12-837-to-fhir', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'operation', equals: 'transaction' }],
    },
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
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['postgres-write'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 1 * * *' },
        { type: 'postgres-write', path: 'table', equals: 'billing.remittances' },
      ],
    },
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
    request:
      'Weekly on Sunday at 3am, query Conditions from the FHIR server, de-identify them and insert them into the research database table research.conditions.',
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
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'fhirpath-extract'],
      config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 * * * *' }],
    },
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
    checks: {
      nodes: ['summarize', 'pipeline-output'],
      config: [{ type: 'summarize', path: 'max_sentences', equals: 3 }],
      connections: [['summarize', 'pipeline-output']],
    },
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
    request:
      'Parse a CSV of lab results, validate each row against a JSON schema requiring code and status, and insert the valid rows into the table lab.results.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: {
      nodes: ['csv-parse', 'json-schema-validate', 'postgres-write'],
      order: ['csv-parse', 'json-schema-validate', 'postgres-write'],
      config: [{ type: 'postgres-write', path: 'table', equals: 'lab.results' }],
    },
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
    checks: {
      nodes: ['fhir-validate', 'fhir-write'],
      order: ['fhir-validate', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'operation', equals: 'create' }],
    },
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
    checks: {
      nodes: ['hl7v2-to-fhir', 'http-request'],
      order: ['hl7v2-to-fhir', 'http-request'],
      config: [{ type: 'http-request', path: 'url', equals: 'https://iis.example.org/fhir' }],
    },
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
];
