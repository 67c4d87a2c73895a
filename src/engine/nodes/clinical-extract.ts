import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf, inRow, EXTRACTION_NAMES } from '../node-plan';

const Config = z.object({
  model: z
    .string()
    .min(1)
    .default('clinflow/offline')
    .describe('Language model id (GET /api/llm-models); clinflow/offline is rule-based (no LLM) and always available'),
  patient_reference: z
    .string()
    .regex(/^(Patient\/[A-Za-z0-9\-.]{1,64}|urn:uuid:[0-9a-f-]{36})$/, 'expected Patient/<id> or urn:uuid:<uuid>')
    .optional()
    .describe("The patient the resources are about (Patient/<id>); else the input's `patient_reference` or `patient` (a Patient resource)"),
  include: z
    .array(z.enum(['Condition', 'MedicationStatement', 'Observation']))
    .min(1)
    .default(['Condition', 'MedicationStatement', 'Observation'])
    .describe('Which resource types to produce'),
});

export const clinicalExtract = describeNode({
  id: 'clinical-extract',
  name: 'Clinical extract',
  idBase: 'extract',
  category: 'ai',
  description: [
    'Extracts conditions, medications and observations from clinical free text with a language model',
    'into FHIR R4 Condition, MedicationStatement and Observation resources in a collection Bundle.',
  ].join(' '),
  version: '1.0.0',
  keywords: [
    'nlp',
    'extract',
    'clinical text',
    'free text',
    'note',
    'fhir',
    'condition',
    'medication',
    'observation',
    'problem list',
    'llm',
    'ai',
    'structured',
    'unstructured',
  ],
  side_effect: 'read',
  documentation: [
    'Asks the language model `model` for the conditions (negated ones left out: "denies fever"), medications',
    '(name, dose, route, frequency) and observations (vital signs, lab values) a clinical text mentions, as',
    'structured output, and builds FHIR R4 resources from them: a `Condition` per condition (`code.text`,',
    'clinical status active, verification unconfirmed — a machine read it), a `MedicationStatement` per medication',
    '(dosage text and route), an `Observation` per value (`valueQuantity` with its unit, or `valueString` such as',
    '`150/95`). They come in a `collection` Bundle that passes FHIR R4 validation, each `subject` the patient.',
    '',
    'The input is a string or an object with `text`, and optionally `patient_reference` or `patient` (a Patient',
    'resource). The patient is `patient_reference` from config, else from the input; without any, subjects carry',
    'only a display ("patient not identified") and a warning is logged. `usage` gives tokens and latency.',
    '',
    'The default model `clinflow/offline` is rule-based (patterns for doses, routes, frequencies, a list of',
    'common conditions and vital signs), not an LLM: review what it finds.',
    '',
    '**Example**: "Hypertension. Started lisinopril 10 mg po daily. BP 150/95 mmHg." with `patient_reference`',
    '`Patient/123` gives a Bundle of a Condition (hypertension), a MedicationStatement (lisinopril, dosage',
    '"lisinopril 10 mg po daily", route po) and an Observation (bp, valueString `150/95 mmHg`).',
  ].join('\n'),
  config: Config,
  example: { model: 'clinflow/offline', patient_reference: 'Patient/123', include: ['Condition', 'MedicationStatement', 'Observation'] },
  ui: { order: ['model', 'patient_reference', 'include'] },
  plan: {
    edit: {
      cue: /\b(conditions|medications|problems|diagnoses)\b[^.]{0,40}\b(from|out of|in) (the )?(note|text)|\bclinical extract\w*/,
      names: EXTRACTION_NAMES,
    },
    role: 'step',
    // on notes it makes FHIR out of text; on FHIR notes it is one more step, in the request's order
    stage: (data) => (data === 'note' ? 'convert' : 'work'),
    input: 'text',
    output: 'bundle',
    jobs: ['ai', 'extract'],
    search: false,
    takes: (f) => f.kind === 'note' || f.kind === 'answer',
    gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'collection' }),
    cue: anyOf(
      inRow(
        /\b(extract|identify|pull out|find|turn)\w*[^.]{0,50}\b(conditions|medications|problems|diagnoses|problem list|vitals)\b/,
        /[^.]{0,50}\b(notes?|text|narrative|dictations?|reports?)\b/,
      ),
      /\b(notes?|free[- ]text|narrative)\b[^.]{0,40}\b(into|as|to) (structured|fhir|conditions)|\bnlp\b/,
      /\bclinical extract/,
    ),
    answers: {
      'to-fhir': { when: (a) => a.data === 'note' && !a.doing('summary'), why: 'clinical text to FHIR' },
      'extract-clinical': {
        when: (a) => a.data === 'note' || /\bnotes?\b|\bnarratives?\b|\bdocumentreference|\bfree[- ]text|\bdictat|\btranscri/.test(a.lower),
        why: 'from clinical text',
      },
    },
    configure: (a) => {
      const named = (t: string) => a.resourceTypes.includes(t) || (t === 'MedicationStatement' && a.resourceTypes.includes('MedicationRequest'));
      const include = ['Condition', 'MedicationStatement', 'Observation'].filter(named);
      if (include.length) {
        a.config.include = include;
        a.filled.push(`include ${include.join(', ')}`);
      }
      const ref = a.text.match(/\bPatient\/[A-Za-z0-9\-.]{1,64}\b/);
      if (ref) a.config.patient_reference = ref[0];
    },
    outputKey: 'extracted',
  },
  ports: () => ({
    inputs: [{ name: 'text', type: 'any', description: 'The clinical text, or {text, patient_reference?, patient?}' }],
    outputs: [
      { name: 'bundle', type: 'fhir-bundle', description: 'A collection Bundle of Condition, MedicationStatement and Observation resources' },
      { name: 'usage', type: 'json', description: '{model, input_tokens, output_tokens, total_tokens, latency_ms}' },
    ],
  }),
  errors: {
    TEXT_MISSING: 'the input is neither a string nor an object with a string `text`',
    MODEL_UNAVAILABLE: 'the model is unknown or its provider is not configured (the message names the env variable to set)',
    LLM_FAILED: 'the provider refused or failed the call (the message says why)',
    LLM_OUTPUT_INVALID: 'the model did not answer with the expected structure',
    FHIR_INVALID: 'the resources built from the answer are not valid FHIR R4 (the message lists the issues)',
  },
});
