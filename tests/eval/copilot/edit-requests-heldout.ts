import { FHIR, TWO_FHIR, WAREHOUSE, type EditEvalRequest } from './edit-fixtures';

/**
 * Edit requests held out (issue 31): written before the edit planner was, committed first, and only scored in
 * aggregate — never looked at one by one while tuning (the tuned set is edit-requests-tuned.ts).
 */
export const HELDOUT_EDIT_REQUESTS: EditEvalRequest[] = [
  // --- HL7 v2 ADT → FHIR (adt)
  {
    id: 'ho-adt-validate-between',
    base: 'adt',
    request: 'Validate the FHIR bundle between to_fhir and out.',
    checks: { nodes: ['fhir-validate'], order: ['to_fhir', 'fhir-validate', 'out'], kept: ['start', 'parse', 'to_fhir', 'out'] },
  },
  {
    id: 'ho-adt-deid-once-parsed',
    base: 'adt',
    request: 'Once the message is parsed, strip the patient identifiers out of it.',
    checks: {
      nodes: ['hl7v2-deidentify'],
      connections: [['parse', 'hl7v2-deidentify']],
      order: ['parse', 'hl7v2-deidentify', 'to_fhir'],
      kept: ['parse', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-adt-write-instead',
    base: 'adt',
    request: 'Send the result to the FHIR server rather than returning it.',
    connectors: FHIR,
    checks: {
      nodes: ['fhir-write'],
      order: ['to_fhir', 'fhir-write'],
      unlinked: [['to_fhir', 'out']],
      config: [{ type: 'fhir-write', path: 'connector', equals: 'Hospital FHIR' }],
      kept: ['parse', 'to_fhir'],
    },
  },
  {
    id: 'ho-adt-webhook-trigger',
    base: 'adt',
    request: 'Start this from a webhook instead of by hand.',
    checks: {
      trigger: 'webhook-trigger',
      absent: ['manual-trigger'],
      order: ['webhook-trigger', 'hl7v2-parse', 'hl7v2-to-fhir'],
      kept: ['parse', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-adt-mllp-trigger',
    base: 'adt',
    request: 'Receive these messages over MLLP on port 6661 instead.',
    checks: {
      trigger: 'mllp-listener-trigger',
      absent: ['manual-trigger'],
      config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 6661 }],
      kept: ['to_fhir', 'out'],
    },
  },
  {
    id: 'ho-adt-archive-raw',
    base: 'adt',
    request: 'Also archive the raw message in Postgres, in the table raw_messages.',
    connectors: WAREHOUSE,
    checks: {
      nodes: ['postgres-write'],
      connections: [['to_fhir', 'out']],
      config: [{ type: 'postgres-write', path: 'table', equals: 'raw_messages' }],
      kept: ['parse', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-adt-remove-parse-refused',
    base: 'adt',
    request: 'Remove the parse step.',
    checks: { refused: true },
  },
  {
    id: 'ho-adt-fhirpath',
    base: 'adt',
    request: "After converting to FHIR, pull out the patient's MRN and birth date with FHIRPath.",
    checks: {
      nodes: ['fhirpath-extract'],
      order: ['to_fhir', 'fhirpath-extract'],
      config: [{ type: 'fhirpath-extract', path: 'expressions.birthDate', equals: 'birthDate' }],
      kept: ['parse', 'to_fhir'],
    },
  },
  {
    id: 'ho-adt-before-out',
    base: 'adt',
    request: 'Just before the result goes out, de-identify it.',
    checks: {
      nodes: ['fhir-deidentify'],
      connections: [['fhir-deidentify', 'out']],
      order: ['to_fhir', 'fhir-deidentify', 'out'],
      kept: ['parse', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-adt-multi',
    base: 'adt',
    request: 'Validate the FHIR bundle and then write it to the FHIR server instead of returning it; retry the write 4 times.',
    connectors: FHIR,
    checks: {
      nodes: ['fhir-validate', 'fhir-write'],
      order: ['to_fhir', 'fhir-validate', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'settings.retry.max_attempts', equals: 4 }],
      kept: ['parse', 'to_fhir'],
    },
  },
  {
    id: 'ho-adt-remove-unknown',
    base: 'adt',
    request: 'Remove the terminology step.',
    checks: { refused: true },
  },
  // --- ORU over MLLP → FHIR server (oru_write)
  {
    id: 'ho-oru-deid-before-write',
    base: 'oru_write',
    request: 'De-identify the bundle just before it is written to the server.',
    connectors: FHIR,
    checks: { nodes: ['fhir-deidentify'], order: ['validate', 'fhir-deidentify', 'write'], kept: ['validate', 'write', 'out_invalid'] },
  },
  {
    id: 'ho-oru-drop-validation',
    base: 'oru_write',
    request: 'Drop the validation step.',
    connectors: FHIR,
    checks: { removed: ['validate'], connections: [['to_fhir', 'write']], kept: ['to_fhir', 'write', 'out'] },
  },
  {
    id: 'ho-oru-ack',
    base: 'oru_write',
    request: 'Send an ACK back to the sender once the message arrives.',
    connectors: FHIR,
    checks: { nodes: ['hl7v2-ack'], connections: [['listener', 'hl7v2-ack']], kept: ['to_fhir', 'validate', 'write'] },
  },
  {
    id: 'ho-oru-copy-postgres',
    base: 'oru_write',
    request: 'Keep a copy of each FHIR bundle in Postgres as well (table fhir_bundles).',
    connectors: [...FHIR, ...WAREHOUSE],
    checks: {
      nodes: ['postgres-write'],
      order: ['to_fhir', 'postgres-write'],
      config: [{ type: 'postgres-write', path: 'table', equals: 'fhir_bundles' }],
      kept: ['validate', 'write', 'out'],
    },
  },
  // written with the order edit (2026-11-29), in phrasings it was not written from; the last is one it does not read
  {
    id: 'ho-oru-order-arrival',
    base: 'oru_write',
    request: 'Make sure the lab messages are written in the order they arrive.',
    connectors: FHIR,
    // a listener keeps a sender's order in either ACK mode (since 2026-11-29, fifth session): nothing to change, said so
    checks: { refused: true, kept: ['to_fhir', 'validate', 'write', 'out'] },
  },
  {
    id: 'ho-oru-ack-processed',
    base: 'oru_write',
    request: 'The ACK should only go back to the sender when the message has been fully processed.',
    connectors: FHIR,
    checks: { config: [{ type: 'listener', path: 'ack_mode', equals: 'completed' }] },
  },
  {
    id: 'ho-oru-one-at-a-time',
    base: 'oru_write',
    request: 'Process the messages one at a time, in sequence.',
    connectors: FHIR,
    checks: { refused: true },
  },
  {
    id: 'ho-oru-retry',
    base: 'oru_write',
    request: 'Retry the FHIR write 5 times if it fails.',
    connectors: FHIR,
    checks: { config: [{ type: 'write', path: 'settings.retry.max_attempts', equals: 5 }], kept: ['to_fhir', 'validate', 'write', 'out'] },
  },
  {
    id: 'ho-oru-forward-mllp',
    base: 'oru_write',
    request: 'Forward the original message to the lab system over MLLP as well.',
    connectors: [...FHIR, { name: 'LIS', type: 'hl7-mllp' }],
    checks: { nodes: ['hl7v2-mllp-send'], config: [{ type: 'hl7v2-mllp-send', path: 'connector', equals: 'LIS' }], kept: ['to_fhir', 'validate', 'write'] },
  },
  {
    id: 'ho-oru-between',
    base: 'oru_write',
    request: 'Put a terminology lookup between to_fhir and validate.',
    connectors: FHIR,
    checks: {
      nodes: ['terminology-lookup'],
      connections: [
        ['to_fhir', 'terminology-lookup'],
        ['terminology-lookup', 'validate'],
      ],
      kept: ['validate', 'write'],
    },
  },
  {
    id: 'ho-oru-multi',
    base: 'oru_write',
    request: 'Remove the validation and add de-identification before the write.',
    connectors: FHIR,
    checks: { removed: ['validate'], nodes: ['fhir-deidentify'], order: ['to_fhir', 'fhir-deidentify', 'write'], kept: ['write', 'out'] },
  },
  // --- FHIR research extract (fhir_research)
  {
    id: 'ho-research-move',
    base: 'fhir_research',
    request: 'Run the de-identification before the FHIRPath extraction.',
    checks: { order: ['start', 'fhir-deidentify', 'fhirpath-extract', 'out'], kept: ['extract', 'deidentify', 'out'] },
  },
  // --- FHIR webhook (fhir_webhook)
  {
    id: 'ho-wh-manual',
    base: 'fhir_webhook',
    request: 'Let me start it by hand with a bundle instead of the webhook.',
    checks: {
      trigger: 'manual-trigger',
      absent: ['webhook-trigger'],
      order: ['manual-trigger', 'fhir-validate', 'fhir-deidentify'],
      kept: ['validate', 'deidentify', 'out'],
    },
  },
  {
    id: 'ho-wh-split',
    base: 'fhir_webhook',
    request: 'Split the bundle into its resources after de-identification.',
    checks: { nodes: ['fhir-bundle-split'], order: ['fhir-deidentify', 'fhir-bundle-split', 'out'], kept: ['validate', 'deidentify'] },
  },
  {
    id: 'ho-wh-post-instead',
    base: 'fhir_webhook',
    request: 'Instead of returning the de-identified bundle, post it to the Research FHIR server.',
    connectors: TWO_FHIR,
    checks: {
      nodes: ['fhir-write'],
      order: ['fhir-deidentify', 'fhir-write'],
      unlinked: [['deidentify', 'out']],
      config: [{ type: 'fhir-write', path: 'connector', equals: 'Research FHIR' }],
      kept: ['validate', 'deidentify'],
    },
  },
  {
    id: 'ho-wh-remove-deid',
    base: 'fhir_webhook',
    request: "We don't need de-identification anymore, take it out.",
    checks: { removed: ['deidentify'], connections: [['validate', 'out']], kept: ['webhook', 'validate', 'out'] },
  },
  {
    id: 'ho-wh-terminology',
    base: 'fhir_webhook',
    request: 'Fill in missing code displays right after validation.',
    checks: {
      nodes: ['terminology-lookup'],
      connections: [['validate', 'terminology-lookup']],
      order: ['fhir-validate', 'terminology-lookup', 'fhir-deidentify'],
      kept: ['validate', 'deidentify', 'out'],
    },
  },
  // --- Patients (patients)
  {
    id: 'ho-pat-female',
    base: 'patients',
    request: 'Only keep female patients.',
    checks: {
      nodes: ['filter'],
      order: ['split', 'filter', 'out'],
      config: [{ type: 'filter', path: 'expression', equals: 'gender = "female"' }],
      kept: ['split', 'out'],
    },
  },
  {
    id: 'ho-pat-warehouse',
    base: 'patients',
    request: 'Also load the patients into the warehouse table research.patients.',
    connectors: WAREHOUSE,
    checks: {
      nodes: ['postgres-write'],
      connections: [
        ['split', 'postgres-write'],
        ['split', 'out'],
      ],
      config: [
        { type: 'postgres-write', path: 'table', equals: 'research.patients' },
        { type: 'postgres-write', path: 'connector', equals: 'warehouse' },
      ],
    },
  },
  {
    id: 'ho-pat-fhirpath',
    base: 'patients',
    request: "Extract each patient's name and gender with FHIRPath before the output.",
    checks: {
      nodes: ['fhirpath-extract'],
      order: ['split', 'fhirpath-extract', 'out'],
      config: [{ type: 'fhirpath-extract', path: 'expressions.gender', equals: 'gender' }],
      kept: ['split', 'out'],
    },
  },
  // --- Clinical note (note)
  {
    id: 'ho-note-extract-alongside',
    base: 'note',
    request: 'Also extract conditions and medications from the note as FHIR, alongside the summary.',
    checks: {
      nodes: ['clinical-extract'],
      connections: [
        ['start', 'clinical-extract'],
        ['summarize', 'out'],
        ['clinical-extract', 'pipeline-output'],
      ],
      kept: ['summarize', 'out'],
    },
  },
  {
    id: 'ho-note-agent-instead',
    base: 'note',
    request: 'Use the triage agent instead of the summarizer.',
    checks: { nodes: ['agent'], absent: ['summarize'], order: ['start', 'agent', 'out'] },
  },
  {
    id: 'ho-note-http',
    base: 'note',
    request: 'Post the summary to https://notes.example.org/api/summaries afterwards.',
    checks: {
      nodes: ['http-request'],
      connections: [['summarize', 'http-request']],
      config: [{ type: 'http-request', path: 'url', equals: 'https://notes.example.org/api/summaries' }],
      kept: ['summarize'],
    },
  },
  {
    id: 'ho-note-five-sentences',
    base: 'note',
    request: 'Make the summary five sentences long.',
    checks: { config: [{ type: 'summarize', path: 'max_sentences', equals: 5 }], kept: ['start', 'summarize', 'out'] },
  },
  {
    id: 'ho-note-email-refused',
    base: 'note',
    request: 'Email the summary to the attending physician.',
    checks: { refused: true },
  },
  // --- X12 claims (claims837, claims_checked)
  {
    id: 'ho-837-claim-edits',
    base: 'claims837',
    request: 'Run the claim edits before converting to FHIR.',
    checks: {
      nodes: ['claim-validate'],
      connections: [['claim-validate', 'x12-837-to-fhir']],
      order: ['x12-parse', 'claim-validate', 'x12-837-to-fhir'],
      kept: ['parse', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-837-835-alongside',
    base: 'claims837',
    request: 'Also handle 835 remittances: convert them to ExplanationOfBenefit alongside the claims.',
    checks: {
      nodes: ['x12-835-to-fhir'],
      connections: [
        ['x12-parse', 'x12-835-to-fhir'],
        ['x12-835-to-fhir', 'pipeline-output'],
      ],
      kept: ['parse', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-837-write-payer',
    base: 'claims837',
    request: 'Write the Claim bundle to the payer FHIR server.',
    connectors: [{ name: 'Payer FHIR', type: 'fhir' }],
    checks: {
      nodes: ['fhir-write'],
      order: ['x12-837-to-fhir', 'fhir-write'],
      config: [{ type: 'fhir-write', path: 'connector', equals: 'Payer FHIR' }],
      kept: ['parse', 'to_fhir'],
    },
  },
  {
    id: 'ho-claims-rejects-http',
    base: 'claims_checked',
    request: 'Send the rejected claims to the billing API instead of an output.',
    connectors: [{ name: 'Billing API', type: 'http' }],
    checks: {
      nodes: ['http-request'],
      connections: [['claim-validate', 'http-request']],
      removed: ['out_rejected'],
      config: [{ type: 'http-request', path: 'connector', equals: 'Billing API' }],
      kept: ['edits', 'to_fhir', 'out'],
    },
  },
  {
    id: 'ho-claims-remove-edits',
    base: 'claims_checked',
    request: 'Remove the claim edits.',
    checks: { removed: ['edits'], absent: ['claim-validate'], connections: [['x12-parse', 'x12-837-to-fhir']], kept: ['parse', 'to_fhir', 'out'] },
  },
  {
    id: 'ho-claims-archive',
    base: 'claims_checked',
    request: 'Store every parsed interchange in the claims table of the warehouse too.',
    connectors: WAREHOUSE,
    checks: {
      nodes: ['postgres-write'],
      connections: [['x12-parse', 'postgres-write']],
      config: [{ type: 'postgres-write', path: 'table', equals: 'claims' }],
      kept: ['edits', 'to_fhir', 'out'],
    },
  },
  // --- Nightly lab load (nightly)
  {
    id: 'ho-night-hourly',
    base: 'nightly',
    request: 'Run it every hour instead of nightly.',
    connectors: [...FHIR, ...WAREHOUSE],
    checks: { trigger: 'schedule-trigger', config: [{ type: 'schedule-trigger', path: 'cron', equals: '0 * * * *' }], kept: ['query', 'split', 'db_write'] },
  },
  {
    id: 'ho-night-deid',
    base: 'nightly',
    request: 'De-identify the observations before they reach the database.',
    connectors: [...FHIR, ...WAREHOUSE],
    checks: { nodes: ['fhir-deidentify'], order: ['fhir-query', 'fhir-deidentify', 'postgres-write'], kept: ['query', 'db_write', 'out'] },
  },
  {
    id: 'ho-night-webhook',
    base: 'nightly',
    request: 'Start this from a webhook instead.',
    connectors: [...FHIR, ...WAREHOUSE],
    checks: { trigger: 'webhook-trigger', absent: ['schedule-trigger'], kept: ['query', 'split', 'db_write', 'out'] },
  },
  {
    id: 'ho-night-final',
    base: 'nightly',
    request: 'Only keep final results.',
    connectors: [...FHIR, ...WAREHOUSE],
    checks: {
      nodes: ['filter'],
      order: ['fhir-bundle-split', 'filter', 'postgres-write'],
      config: [{ type: 'filter', path: 'expression', equals: 'status = "final"' }],
      kept: ['query', 'split', 'db_write'],
    },
  },
  // --- CSV load (csv_load)
  {
    id: 'ho-csv-schema',
    base: 'csv_load',
    request: 'Check each row has an mrn and a birth_date before loading it.',
    connectors: WAREHOUSE,
    checks: { nodes: ['json-schema-validate'], order: ['csv-parse', 'json-schema-validate', 'postgres-write'], kept: ['parse', 'db_write'] },
  },
  {
    id: 'ho-csv-table',
    base: 'csv_load',
    request: 'Load into staging.patients instead.',
    connectors: WAREHOUSE,
    checks: { config: [{ type: 'postgres-write', path: 'table', equals: 'staging.patients' }], kept: ['parse', 'db_write', 'out'] },
  },
  {
    id: 'ho-csv-skip-male',
    base: 'csv_load',
    request: 'Skip the rows where gender is male.',
    connectors: WAREHOUSE,
    checks: { nodes: ['filter'], order: ['csv-parse', 'filter', 'postgres-write'], kept: ['parse', 'db_write'] },
  },
];
