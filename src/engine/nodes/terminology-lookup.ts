import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf, isFhir, pass } from '../node-plan';

const Config = z.object({
  overwrite: z.boolean().default(false).describe("Also replace displays that differ from the code system's (by default only missing displays are filled in)"),
  on_unknown: z
    .enum(['report', 'fail'])
    .default('report')
    .describe('report: pass the value on and list unknown codes on "unknown"; fail: stop the execution when a code without display is unknown'),
});

export const terminologyLookup = describeNode({
  id: 'terminology-lookup',
  name: 'Terminology lookup',
  idBase: 'terminology',
  category: 'healthcare',
  description: [
    'Fills in the missing displays of codes (HL7 v2 tables, FHIR and HL7 v3 code systems, and the',
    'LOINC, SNOMED CT, RxNorm, CVX… codes of the samples) and reports codes it does not know.',
  ].join(' '),
  version: '1.0.0',
  keywords: [
    'terminology',
    'code',
    'display',
    'lookup',
    'coding',
    'codeableconcept',
    'loinc',
    'snomed',
    'rxnorm',
    'cvx',
    'icd-10',
    'hl7 table',
    'v2',
    'v3',
    'enrich',
  ],
  side_effect: 'none',
  documentation: [
    'Finds every Coding in the input — a resource, a Bundle, a CodeableConcept, a Coding, or just `{"system", "code"}`',
    '— and, where it has no `display`, fills it in from an offline source, in this order:',
    '- the HL7 v2 tables (`http://terminology.hl7.org/CodeSystem/v2-0001`, or `HL70001`): `F` → `Female`;',
    '- the FHIR, HL7 v3 and terminology.hl7.org code systems of the R4 definitions (`condition-clinical`,',
    '  `v3-ActCode`, `administrative-gender`…);',
    '- for LOINC, SNOMED CT, RxNorm, CVX, ICD-10, NDC, CPT, CDC race and ethnicity and a few others, which no',
    '  installed library ships: a small table of the displays the sample data carries (399 codes). Any other',
    '  code of those systems is unknown here.',
    '',
    'Nothing is guessed: a code found nowhere keeps no display and is listed on `unknown` as',
    '`[{"path": "Condition.code.coding[0]", "system": "http://snomed.info/sct", "code": "…", "reason":',
    '"unknown-code"}]` (`unknown-system` when the system is not known at all, `no-system` for a bare code).',
    '`unknown` fires only when there are some. `value` is the input with displays added; for a single code,',
    '`display` also carries the display as text.',
    '',
    '**Example**: `{"system": "http://terminology.hl7.org/CodeSystem/v2-0004", "code": "I"}` gives `value`',
    '`{"system": …, "code": "I", "display": "Inpatient"}` and `display` `"Inpatient"`; an Immunization whose',
    '`vaccineCode` is CVX `140` without display gets `"Influenza, seasonal, injectable, preservative free"`.',
  ].join('\n'),
  config: Config,
  example: { overwrite: false, on_unknown: 'report' },
  plan: {
    edit: { cue: /\bterminolog\w*|\bcode displays?\b|\bmissing displays?\b|\bdisplays? (for|of) (the )?codes\b/, names: /\bterminolog\w*|\bdisplays?\b/ },
    role: 'step',
    stage: 'work',
    input: 'value',
    output: 'value',
    takes: (f) => isFhir(f) && !f.list,
    gives: pass,
    cue: anyOf(
      /\bterminolog\w*|\bmissing displays?\b|\bcode displays?\b|\blook\w* up (the )?codes\b/,
      /\benrich\w*[^.]{0,20}codes|\bdisplays? (for|of) (the )?codes\b/,
    ),
  },
  ports: () => ({
    inputs: [{ name: 'value', type: 'json', description: 'A FHIR resource or Bundle, a CodeableConcept, a Coding or {system, code}' }],
    outputs: [
      { name: 'value', type: 'any', description: 'The input with the displays filled in (same kind as the input)' },
      { name: 'display', type: 'text', description: 'For a single code: its display' },
      { name: 'unknown', type: 'json', description: '[{path, system, code, reason}] for codes left without display (only when there are some)' },
    ],
  }),
  errors: {
    TERMINOLOGY_UNKNOWN_CODE: '`on_unknown` is `fail` and a code without display is unknown (the message lists them)',
    VALUE_INVALID: 'the input is not an object (a resource, a Coding…)',
  },
});
