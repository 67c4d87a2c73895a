import { type EvalRequest, HL7, X12, FHIR, LAB_CSV, NOTE } from './fixtures';

/** The later unseen batches (four to six), written as BLIND_REQUESTS_1_3 were: after the planner was tuned on everything before them. */
export const BLIND_REQUESTS_4_6: EvalRequest[] = [
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
    request:
      "Twice a day is too often; once a day at 22:00 send yesterday's Encounters from the FHIR server to the analytics endpoint https://analytics.example.org/ingest.",
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
    checks: {
      nodes: ['x12-parse', 'x12-837-to-fhir', 'postgres-write'],
      order: ['x12-837-to-fhir', 'postgres-write'],
      config: [{ type: 'postgres-write', path: 'table', equals: 'claims.headers' }],
    },
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
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-to-fhir'],
      config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 5000 }],
      absent: ['hl7v2-mllp-send'],
    },
    sample: HL7('VXU-V04-01.hl7'),
  },
  {
    id: 'h4-bundle-to-warehouse',
    request: 'Store every resource of an incoming FHIR bundle as a row in the table fhir.resources.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: {
      nodes: ['fhir-bundle-split', 'postgres-write'],
      order: ['fhir-bundle-split', 'postgres-write'],
      config: [{ type: 'postgres-write', path: 'table', equals: 'fhir.resources' }],
    },
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
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-deidentify', 'hl7v2-mllp-send'],
      order: ['hl7v2-deidentify', 'hl7v2-mllp-send'],
      config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 7000 }],
    },
    sample: HL7('ADT-A01-01.hl7'),
  },
  {
    id: 'h5-immunization-gaps-agent',
    request: 'Each weekday at 9, pull Immunizations from the EHR and let the immunization-gaps agent suggest what is due.',
    connectors: FHIR,
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'agent'],
      order: ['fhir-query', 'agent'],
      config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 9 * * 1-5' }],
    },
  },
  {
    id: 'h5-csv-upsert',
    request: 'Upsert a spreadsheet of providers into the table ref.providers.',
    connectors: [{ name: 'warehouse', type: 'postgres' }],
    checks: {
      nodes: ['csv-parse', 'postgres-write'],
      order: ['csv-parse', 'postgres-write'],
      config: [{ type: 'postgres-write', path: 'mode', equals: 'upsert' }],
    },
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
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-bulk-export'],
      config: [
        { type: 'schedule-trigger', path: 'cron', equals: '0 4 * * 6' },
        { type: 'fhir-bulk-export', path: 'group_id', equals: 'diabetes-cohort' },
      ],
    },
  },
  {
    id: 'h6-837-invalid-http',
    request:
      'Check 837 claims for errors before submission; send claims with errors to the billing team API https://billing.example.org/rework and return the clean ones.',
    checks: { nodes: ['x12-parse', 'claim-validate', 'http-request'], connections: [['claim-validate', 'http-request']] },
    sample: X12('837_005010X222A2/demo.example1.837'),
  },
  {
    id: 'h6-patient-demographics-csv',
    request: 'Get name, gender and birth date out of FHIR Patients from the EHR every night and write them to the table mpi.patients.',
    connectors: [...FHIR, { name: 'mpi', type: 'postgres' }],
    checks: {
      trigger: 'schedule-trigger',
      nodes: ['fhir-query', 'fhirpath-extract', 'postgres-write'],
      order: ['fhir-query', 'fhirpath-extract', 'postgres-write'],
    },
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
    checks: {
      nodes: ['terminology-lookup', 'fhir-write'],
      order: ['terminology-lookup', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'operation', equals: 'create' }],
    },
    sample: { ndjson: 'synthea-10/Condition.000.ndjson', as: 'resource' },
  },
  {
    id: 'h6-mllp-ack-forward',
    request: 'Accept ORM messages over MLLP on port 2576 and pass them on to the pharmacy system over MLLP.',
    connectors: [{ name: 'Pharmacy', type: 'hl7-mllp' }],
    checks: {
      trigger: 'mllp-listener-trigger',
      nodes: ['hl7v2-mllp-send'],
      config: [
        { type: 'mllp-listener-trigger', path: 'port', equals: 2576 },
        { type: 'hl7v2-mllp-send', path: 'connector', equals: 'Pharmacy' },
      ],
    },
    sample: HL7('ORM-O01-01.hl7'),
  },
];
