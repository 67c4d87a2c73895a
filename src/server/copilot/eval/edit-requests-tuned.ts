import { FHIR, TWO_FHIR, WAREHOUSE, type EditEvalRequest } from './edit-fixtures';

const FW = [...FHIR, ...WAREHOUSE];

/** Edit requests the edit planner is tuned on (issue 31); the held-out ones are edit-requests-heldout.ts. */
export const TUNED_EDIT_REQUESTS: EditEvalRequest[] = [
  // --- insert between / before / after a step named by id, label, type or what it does
  { id: 't-adt-validate-after-convert', base: 'adt', request: 'Add FHIR validation after to_fhir.', checks: { nodes: ['fhir-validate'], order: ['to_fhir', 'fhir-validate', 'out'], kept: ['parse', 'to_fhir', 'out'] } },
  { id: 't-adt-validate-before-output', base: 'adt', request: 'Add validation before the output.', checks: { nodes: ['fhir-validate'], connections: [['fhir-validate', 'out']], kept: ['to_fhir'] } },
  { id: 't-adt-deid-hl7', base: 'adt', request: 'De-identify the message right after parsing.', checks: { nodes: ['hl7v2-deidentify'], order: ['parse', 'hl7v2-deidentify', 'to_fhir'], kept: ['parse', 'to_fhir', 'out'] } },
  { id: 't-adt-deid-between', base: 'adt', request: 'Insert a de-identification step between parse and to_fhir.', checks: { nodes: ['hl7v2-deidentify'], connections: [['parse', 'hl7v2-deidentify'], ['hl7v2-deidentify', 'to_fhir']] } },
  { id: 't-adt-deid-fhir-end', base: 'adt', request: 'Add de-identification before out.', checks: { nodes: ['fhir-deidentify'], connections: [['fhir-deidentify', 'out']], order: ['to_fhir', 'fhir-deidentify'] } },
  { id: 't-adt-terminology', base: 'adt', request: 'Once the message is converted to FHIR, look up missing code displays.', checks: { nodes: ['terminology-lookup'], order: ['to_fhir', 'terminology-lookup', 'out'] } },
  { id: 't-adt-split-end', base: 'adt', request: 'Split the FHIR bundle into resources before returning it.', checks: { nodes: ['fhir-bundle-split'], order: ['to_fhir', 'fhir-bundle-split', 'out'] } },
  { id: 't-oru-validate-label', base: 'oru_write', request: 'Add a terminology lookup just before the FHIR validation.', connectors: FHIR, checks: { nodes: ['terminology-lookup'], connections: [['terminology-lookup', 'validate']], order: ['to_fhir', 'terminology-lookup', 'validate'] } },
  { id: 't-oru-deid-after-validation', base: 'oru_write', request: 'After validation, de-identify the bundle.', connectors: FHIR, checks: { nodes: ['fhir-deidentify'], order: ['validate', 'fhir-deidentify', 'write'], kept: ['out_invalid'] } },
  { id: 't-oru-deid-suggestion', base: 'oru_write', request: 'add de-identification before write', connectors: FHIR, checks: { nodes: ['fhir-deidentify'], connections: [['fhir-deidentify', 'write']], kept: ['validate'] } },
  { id: 't-wh-deid-first', base: 'fhir_webhook', request: 'Add terminology lookup once the bundle has been validated.', checks: { nodes: ['terminology-lookup'], connections: [['validate', 'terminology-lookup']], order: ['terminology-lookup', 'deidentify'] } },
  { id: 't-note-deid-refused', base: 'note', request: 'Remove the output.', checks: { refused: true } },
  { id: 't-837-claim-checks-after-parse', base: 'claims837', request: 'Add claim checks after the X12 is parsed.', checks: { nodes: ['claim-validate'], order: ['x12-parse', 'claim-validate', 'x12-837-to-fhir'], kept: ['to_fhir', 'out'] } },
  { id: 't-837-validate-fhir', base: 'claims837', request: 'Validate the Claim bundle before it goes out.', checks: { nodes: ['fhir-validate'], order: ['x12-837-to-fhir', 'fhir-validate', 'out'] } },
  { id: 't-csv-transform', base: 'csv_load', request: 'Add a JSONata transform between parse and db_write.', connectors: WAREHOUSE, checks: { nodes: ['jsonata-transform'], connections: [['parse', 'jsonata-transform'], ['jsonata-transform', 'db_write']] } },
  // --- parallel branches, keeping what is there
  { id: 't-adt-archive-warehouse', base: 'adt', request: 'Also store the FHIR bundle in the warehouse table adt_bundles.', connectors: WAREHOUSE, checks: { nodes: ['postgres-write'], connections: [['to_fhir', 'out']], order: ['to_fhir', 'postgres-write'], config: [{ type: 'postgres-write', path: 'table', equals: 'adt_bundles' }], kept: ['out'] } },
  { id: 't-adt-also-write', base: 'adt', request: 'Also write the bundle to the FHIR server, and keep returning it.', connectors: FHIR, checks: { nodes: ['fhir-write'], connections: [['to_fhir', 'out']], order: ['to_fhir', 'fhir-write'], kept: ['out'] } },
  { id: 't-adt-ack-too', base: 'adt', request: 'Also build an ACK for each message.', checks: { nodes: ['hl7v2-ack'], connections: [['parse', 'hl7v2-ack'], ['to_fhir', 'out']] } },
  { id: 't-oru-raw-archive', base: 'oru_write', request: 'Archive the raw message in Postgres as well, in the hl7_archive table.', connectors: FW, checks: { nodes: ['postgres-write'], config: [{ type: 'postgres-write', path: 'table', equals: 'hl7_archive' }], kept: ['to_fhir', 'validate', 'write', 'out'] } },
  { id: 't-oru-notify', base: 'oru_write', request: 'Also notify https://hooks.example.org/lab when a bundle fails validation.', connectors: FHIR, checks: { nodes: ['http-request'], connections: [['validate', 'http-request']], config: [{ type: 'http-request', path: 'url', equals: 'https://hooks.example.org/lab' }], kept: ['write'] } },
  { id: 't-note-extract-too', base: 'note', request: 'In parallel, extract the conditions from the note into FHIR.', checks: { nodes: ['clinical-extract'], connections: [['start', 'clinical-extract'], ['summarize', 'out']], kept: ['summarize'] } },
  { id: 't-pat-postgres-too', base: 'patients', request: 'Write the patients to the patients table in the warehouse too.', connectors: WAREHOUSE, checks: { nodes: ['postgres-write'], connections: [['split', 'out']], config: [{ type: 'postgres-write', path: 'table', equals: 'patients' }] } },
  { id: 't-837-835-too', base: 'claims837', request: 'Also convert 835 remittances to FHIR alongside the 837.', checks: { nodes: ['x12-835-to-fhir'], connections: [['x12-parse', 'x12-835-to-fhir'], ['x12-837-to-fhir', 'pipeline-output']], kept: ['to_fhir', 'out'] } },
  { id: 't-checked-archive', base: 'claims_checked', request: 'Also save the claims that pass the edits to the warehouse table good_claims.', connectors: WAREHOUSE, checks: { nodes: ['postgres-write'], connections: [['claim-validate', 'postgres-write']], config: [{ type: 'postgres-write', path: 'table', equals: 'good_claims' }], kept: ['to_fhir', 'out'] } },
  // --- remove, reconnecting
  { id: 't-adt-remove-conversion', base: 'adt', request: 'Remove the FHIR conversion.', checks: { removed: ['to_fhir'], connections: [['parse', 'out']] } },
  { id: 't-adt-remove-parse-refused', base: 'adt', request: 'Delete parse.', checks: { refused: true } },
  { id: 't-oru-remove-validate-id', base: 'oru_write', request: 'Remove validate.', connectors: FHIR, checks: { removed: ['validate', 'out_invalid'], connections: [['to_fhir', 'write']], kept: ['write', 'out'] } },
  { id: 't-wh-remove-validation', base: 'fhir_webhook', request: 'Delete the validation step.', checks: { removed: ['validate'], connections: [['webhook', 'deidentify']], kept: ['deidentify', 'out'] } },
  { id: 't-wh-no-deid', base: 'fhir_webhook', request: 'Stop de-identifying the bundles.', checks: { removed: ['deidentify'], connections: [['validate', 'out']] } },
  { id: 't-research-remove-deid', base: 'fhir_research', request: 'Remove the de-identification node.', checks: { removed: ['deidentify'], connections: [['extract', 'out']] } },
  { id: 't-night-remove-split', base: 'nightly', request: 'Remove the bundle split.', connectors: FW, checks: { refused: false, removed: ['split'], kept: ['query', 'db_write'] } },
  { id: 't-checked-drop-edits', base: 'claims_checked', request: "Drop the claim validation, we don't need it.", checks: { removed: ['edits', 'out_rejected'], connections: [['parse', 'to_fhir']], kept: ['to_fhir', 'out'] } },
  { id: 't-remove-nothing', base: 'patients', request: 'Remove the agent.', checks: { refused: true } },
  // --- move
  { id: 't-research-deid-first', base: 'fhir_research', request: 'Do the FHIRPath extraction after the de-identification.', checks: { order: ['start', 'deidentify', 'extract', 'out'], kept: ['extract', 'deidentify'] } },
  { id: 't-research-move-deid', base: 'fhir_research', request: 'Move deidentify before extract.', checks: { order: ['deidentify', 'extract', 'out'], connections: [['start', 'deidentify']] } },
  { id: 't-wh-move-deid', base: 'fhir_webhook', request: 'De-identify before validating.', checks: { order: ['webhook', 'deidentify', 'validate', 'out'], kept: ['validate', 'deidentify'] } },
  // --- replace a step or the trigger
  { id: 't-adt-webhook', base: 'adt', request: 'Start this from a webhook instead.', checks: { trigger: 'webhook-trigger', absent: ['manual-trigger'], kept: ['parse', 'to_fhir', 'out'] } },
  { id: 't-adt-mllp', base: 'adt', request: 'Listen for the messages over MLLP on port 2600 rather than starting by hand.', checks: { trigger: 'mllp-listener-trigger', config: [{ type: 'mllp-listener-trigger', path: 'port', equals: 2600 }], kept: ['to_fhir', 'out'] } },
  { id: 't-adt-schedule-refused', base: 'adt', request: 'Run it every night at 2am instead.', checks: { refused: true } },
  { id: 't-adt-write-not-return', base: 'adt', request: 'Write the bundle to the FHIR server instead of returning it.', connectors: FHIR, checks: { nodes: ['fhir-write'], order: ['to_fhir', 'fhir-write'], unlinked: [['to_fhir', 'out']], config: [{ type: 'fhir-write', path: 'connector', equals: 'Hospital FHIR' }] } },
  { id: 't-wh-write-ehr', base: 'fhir_webhook', request: 'Send the result to the EHR rather than returning it.', connectors: TWO_FHIR, checks: { nodes: ['fhir-write'], unlinked: [['deidentify', 'out']], config: [{ type: 'fhir-write', path: 'connector', equals: 'EHR' }] } },
  { id: 't-wh-schedule-query', base: 'nightly', request: 'Start it by hand instead of on a schedule.', connectors: FW, checks: { trigger: 'manual-trigger', absent: ['schedule-trigger'], kept: ['query', 'split', 'db_write'] } },
  { id: 't-night-webhook', base: 'nightly', request: 'Trigger it from a webhook rather than the schedule.', connectors: FW, checks: { trigger: 'webhook-trigger', kept: ['query', 'db_write'] } },
  { id: 't-note-llm-instead', base: 'note', request: 'Replace the summarizer with an LLM prompt that classifies the note as urgent or routine.', checks: { nodes: ['llm-prompt'], absent: ['summarize'], order: ['start', 'llm-prompt', 'out'] } },
  { id: 't-oru-mllp-instead', base: 'oru_write', request: 'Send the message to the LIS over MLLP instead of writing to the FHIR server.', connectors: [...FHIR, { name: 'LIS', type: 'hl7-mllp' }], checks: { nodes: ['hl7v2-mllp-send'], absent: ['fhir-write'], config: [{ type: 'hl7v2-mllp-send', path: 'connector', equals: 'LIS' }] } },
  { id: 't-wh-lead-instead', base: 'fhir_webhook', request: 'Instead of returning the validated data, send it to https://research.example.org/intake.', checks: { nodes: ['http-request'], connections: [['deidentify', 'http-request']], unlinked: [['deidentify', 'out']], config: [{ type: 'http-request', path: 'url', equals: 'https://research.example.org/intake' }] } },
  { id: 't-pat-http-instead', base: 'patients', request: 'Post the patients to https://registry.example.org/patients instead of returning them.', checks: { nodes: ['http-request'], unlinked: [['split', 'out']], config: [{ type: 'http-request', path: 'url', equals: 'https://registry.example.org/patients' }] } },
  { id: 't-wh-manual-bundle', base: 'fhir_webhook', request: 'Make it a manual pipeline instead of a webhook.', checks: { trigger: 'manual-trigger', absent: ['webhook-trigger'], kept: ['validate', 'deidentify', 'out'] } },
  // --- filters and branches with a condition from the sentence
  { id: 't-pat-male', base: 'patients', request: 'Only keep male patients.', checks: { nodes: ['filter'], order: ['split', 'filter', 'out'], config: [{ type: 'filter', path: 'expression', equals: 'gender = "male"' }] } },
  { id: 't-pat-deceased', base: 'patients', request: 'Filter out deceased patients.', checks: { nodes: ['filter'], order: ['split', 'filter', 'out'] } },
  { id: 't-pat-born-after', base: 'patients', request: 'Keep only the patients born after 1980.', checks: { nodes: ['filter'], order: ['split', 'filter', 'out'], config: [{ type: 'filter', path: 'expression', equals: 'birthDate > "1980"' }] } },
  { id: 't-night-final-only', base: 'nightly', request: 'Only load final observations.', connectors: FW, checks: { nodes: ['filter'], order: ['split', 'filter', 'db_write'], config: [{ type: 'filter', path: 'expression', equals: 'status = "final"' }] } },
  { id: 't-csv-female', base: 'csv_load', request: 'Only keep rows where gender is female.', connectors: WAREHOUSE, checks: { nodes: ['filter'], order: ['parse', 'filter', 'db_write'], config: [{ type: 'filter', path: 'expression', equals: 'gender = "female"' }] } },
  { id: 't-adt-only-a01', base: 'adt', request: 'Only convert A01 admissions; route the rest to a separate output.', checks: { nodes: ['condition'], order: ['parse', 'condition', 'to_fhir'] } },
  // --- configure from the sentence
  { id: 't-pat-fhirpath-mrn', base: 'patients', request: 'Extract the MRN and gender with FHIRPath after the split.', checks: { nodes: ['fhirpath-extract'], order: ['split', 'fhirpath-extract', 'out'], config: [{ type: 'fhirpath-extract', path: 'expressions.mrn', equals: "identifier.where(type.coding.code = 'MR').value" }] } },
  { id: 't-csv-rename-table', base: 'csv_load', request: 'Write to the table warehouse.patients instead.', connectors: WAREHOUSE, checks: { config: [{ type: 'postgres-write', path: 'table', equals: 'warehouse.patients' }], kept: ['parse', 'db_write'] } },
  { id: 't-night-cron', base: 'nightly', request: 'Change the schedule to every 15 minutes.', connectors: FW, checks: { config: [{ type: 'schedule-trigger', path: 'cron', equals: '*/15 * * * *' }] } },
  { id: 't-note-sentences', base: 'note', request: 'Summarize in 2 sentences instead.', checks: { config: [{ type: 'summarize', path: 'max_sentences', equals: 2 }], kept: ['summarize'] } },
  { id: 't-oru-retry', base: 'oru_write', request: 'retry writes 6 times', connectors: FHIR, checks: { config: [{ type: 'write', path: 'settings.retry.max_attempts', equals: 6 }] } },
  { id: 't-night-connector', base: 'nightly', request: 'Read the observations from the Research FHIR server instead.', connectors: [...TWO_FHIR, ...WAREHOUSE], checks: { config: [{ type: 'fhir-query', path: 'connector', equals: 'Research FHIR' }], kept: ['query'] } },
  { id: 't-adt-write-connector', base: 'adt', request: 'Write the bundle to the Research FHIR server after converting it.', connectors: TWO_FHIR, checks: { nodes: ['fhir-write'], order: ['to_fhir', 'fhir-write'], config: [{ type: 'fhir-write', path: 'connector', equals: 'Research FHIR' }] } },
  // --- several changes in one request
  { id: 't-multi-oru', base: 'oru_write', request: 'Add de-identification after validation and retry the write 4 times.', connectors: FHIR, checks: { nodes: ['fhir-deidentify'], order: ['validate', 'fhir-deidentify', 'write'], config: [{ type: 'write', path: 'settings.retry.max_attempts', equals: 4 }] } },
  { id: 't-multi-pat', base: 'patients', request: 'Only keep female patients, then extract their MRN with FHIRPath.', checks: { nodes: ['filter', 'fhirpath-extract'], order: ['split', 'filter', 'fhirpath-extract', 'out'] } },
  { id: 't-multi-837', base: 'claims837', request: 'Run claim edits after parsing and validate the FHIR bundle before the output.', checks: { nodes: ['claim-validate', 'fhir-validate'], order: ['x12-parse', 'claim-validate', 'x12-837-to-fhir', 'fhir-validate', 'out'] } },
];
