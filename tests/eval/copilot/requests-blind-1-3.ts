import { type EvalRequest, HL7, X12, FHIR, NOTE } from './fixtures';

/** Written after the planner was tuned on TUNED_REQUESTS, batch by batch, to see how it does on requests it has not seen (each batch then joined the ones it is tuned on). */
export const BLIND_REQUESTS_1_3: EvalRequest[] = [
  // written after the planner was tuned on the requests above, to see how it does on requests it has not seen
  {
    id: 'h-oml-order-fhir',
    request: 'When an OML lab order arrives over MLLP, convert it to FHIR and post the ServiceRequest bundle to the FHIR server.',
    connectors: FHIR,
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-to-fhir', 'fhir-write'],
      order: ['hl7v2-to-fhir', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'operation', equals: 'transaction' }],
    },
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
    checks: {
      trigger: 'webhook-trigger',
      nodes: ['fhir-validate'],
      connections: [
        ['webhook-trigger', 'fhir-validate'],
        ['fhir-validate', 'pipeline-output'],
      ],
    },
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
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'agent'],
      order: ['fhir-query', 'agent'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '*/5 * * * *' },
        { type: 'fhir-query', path: 'query', equals: 'DiagnosticReport?_sort=-_lastUpdated&_count=100' },
      ],
    },
  },
  {
    id: 'h-csv-immunizations',
    request: 'Take a CSV of immunizations and write them as FHIR Immunization resources to the registry FHIR server.',
    connectors: [{ name: 'Registry FHIR', type: 'fhir' }],
    checks: {
      nodes: ['csv-parse', 'fhir-write'],
      order: ['csv-parse', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'connector', equals: 'Registry FHIR' }],
    },
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
    checks: {
      nodes: ['condition', 'http-request'],
      order: ['condition', 'http-request'],
      config: [{ type: 'http-request', path: 'url', equals: 'https://registry.example.org/deaths' }],
    },
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
    checks: {
      nodes: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate'],
      order: ['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate'],
      absent: ['schedule-trigger'],
    },
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
    checks: {
      nodes: ['terminology-lookup'],
      connections: [
        ['manual-trigger', 'terminology-lookup'],
        ['terminology-lookup', 'pipeline-output'],
      ],
    },
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
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'summarize'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 0 1 * *' },
        { type: 'fhir-query', path: 'query', equals: 'Immunization?_count=100' },
      ],
    },
  },
  {
    id: 'h2-orm-to-lis',
    request: 'Send ORM orders received over MLLP on port 2600 to the lab LIS over MLLP and keep a FHIR copy on the server.',
    connectors: [...FHIR, { name: 'LIS', type: 'hl7-mllp' }],
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-mllp-send', 'hl7v2-to-fhir', 'fhir-write'],
      config: [
        { type: 'mllp-listener-trigger', path: 'port', equals: 2600 },
        { type: 'hl7v2-mllp-send', path: 'connector', equals: 'LIS' },
      ],
    },
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
    checks: {
      trigger: 'webhook-trigger',
      nodes: ['json-schema-validate', 'postgres-write'],
      order: ['json-schema-validate', 'postgres-write'],
      config: [{ type: 'postgres-write', path: 'table', equals: 'intake.records' }],
    },
    sample: { text: '{"mrn": "A1", "status": "new"}' },
  },
  {
    id: 'h2-glucose-csv-alert',
    request: 'Read a glucose CSV export and notify https://alerts.example.org/glucose for rows where glucose is over 300.',
    checks: {
      nodes: ['csv-parse', 'filter', 'http-request'],
      order: ['csv-parse', 'filter', 'http-request'],
      config: [{ type: 'filter', path: 'expression', equals: '$number(glucose) > 300' }],
    },
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
    checks: {
      nodes: ['fhir-validate', 'fhir-write'],
      order: ['fhir-validate', 'fhir-write'],
      config: [{ type: 'fhir-validate', path: 'profile', equals: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient' }],
    },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
  // a third unseen batch
  {
    id: 'h3-rde-pharmacy',
    request: 'Pharmacy orders (RDE) come in over MLLP; convert them to FHIR MedicationRequests, check them against FHIR R4 and save them in the EHR.',
    connectors: FHIR,
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-to-fhir', 'fhir-validate', 'fhir-write'],
      order: ['hl7v2-to-fhir', 'fhir-validate', 'fhir-write'],
    },
    sample: HL7('RDE-O11-01.hl7'),
  },
  {
    id: 'h3-daily-conditions-csv',
    request:
      'Each morning at 5:45, get the active Conditions from the EHR and push them to the quality dashboard API at https://quality.example.org/api/conditions.',
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
    checks: {
      nodes: ['hl7v2-parse', 'hl7v2-to-fhir'],
      connections: [['hl7v2-parse', 'pipeline-output']],
      order: ['hl7v2-parse', 'hl7v2-to-fhir', 'pipeline-output'],
    },
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
    checks: {
      nodes: ['jsonata-transform'],
      connections: [
        ['manual-trigger', 'jsonata-transform'],
        ['jsonata-transform', 'pipeline-output'],
      ],
    },
    sample: { ndjson: 'synthea-10/Patient.000.ndjson', as: 'resource' },
  },
];
