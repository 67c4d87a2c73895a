import { z } from 'zod';
import { fhirPathProblem } from '@/clinical/fhir/fhirpath';
import { describeNode } from '../node-descriptor';
import { anyOf, isFhir, EXTRACTION_NAMES } from '../node-plan';

const Config = z.object({
  expressions: z
    .record(z.string().min(1).max(100), z.string().min(1).max(2_000))
    .default({ resourceType: 'resourceType', id: 'id' })
    .superRefine((map, ctx) => {
      if (Object.keys(map).length === 0) ctx.addIssue({ code: 'custom', message: 'give at least one name → FHIRPath expression' });
      for (const [name, expression] of Object.entries(map)) {
        const problem = fhirPathProblem(expression);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    })
    .describe('Name → FHIRPath expression (R4), e.g. {"mrn": "identifier.where(type.coding.code = \'MR\').value"}; each is checked when the pipeline is saved'),
  mode: z.enum(['first', 'all']).default('first').describe('first: each name gets the first value (null when there is none); all: every value, as a list'),
  each_entry: z
    .boolean()
    .default(false)
    .describe(
      "For a Bundle: evaluate the expressions on each entry's resource and output one object per entry (in entry order), instead of once on the bundle",
    ),
});

/** FHIR fields by the words a request names them with: the output key and its FHIRPath. */
const FHIRPATHS: Record<string, [string, string]> = {
  mrn: ['mrn', "identifier.where(type.coding.code = 'MR').value"],
  identifier: ['identifier', 'identifier.value'],
  name: ['name', "name.given.first() & ' ' & name.family"],
  'family name': ['family', 'name.family'],
  'last name': ['family', 'name.family'],
  'given name': ['given', 'name.given.first()'],
  'first name': ['given', 'name.given.first()'],
  'birth date': ['birthDate', 'birthDate'],
  birthdate: ['birthDate', 'birthDate'],
  'date of birth': ['birthDate', 'birthDate'],
  dob: ['birthDate', 'birthDate'],
  gender: ['gender', 'gender'],
  sex: ['gender', 'gender'],
  address: ['address', 'address.line.first()'],
  zip: ['postalCode', 'address.postalCode'],
  'postal code': ['postalCode', 'address.postalCode'],
  phone: ['phone', "telecom.where(system = 'phone').value"],
  email: ['email', "telecom.where(system = 'email').value"],
  status: ['status', 'status'],
  code: ['code', 'code.coding.code'],
  onset: ['onset', 'onsetDateTime'],
};

export const fhirpathExtract = describeNode({
  id: 'fhirpath-extract',
  name: 'FHIRPath extract',
  idBase: 'extract',
  category: 'healthcare',
  description: 'Pulls named values out of a FHIR resource or bundle with FHIRPath expressions.',
  version: '1.0.0',
  keywords: ['fhir', 'fhirpath', 'extract', 'path', 'query', 'select', 'field', 'value', 'flatten', 'map', 'r4'],
  side_effect: 'none',
  documentation: [
    'Evaluates each FHIRPath expression of `expressions` on the input (with the R4 model, so `ofType()` and choice',
    'types such as `value.ofType(Quantity)` work; `resolve()` and terminology functions such as `memberOf()` are not',
    'available) and outputs an object with one key per name. With `mode: "first"` a name gets the first value or `null`; with `"all"`',
    'the list of every value. Complex values (a `HumanName`, a `Coding`) come out as JSON.',
    '',
    'On a Bundle, expressions start at the bundle (`Bundle.entry.resource.ofType(Patient).birthDate`); with',
    "`each_entry` they run on every entry's resource instead and `values` is a list with one object per entry.",
    'Expressions are compiled once and checked when the pipeline is saved: a typo is reported then, not at run time.',
    '',
    '**Example**: on a Synthea Patient, `{"family": "name.where(use = \'official\').family", "birthDate":',
    '"birthDate", "mrn": "identifier.where(type.coding.code = \'MR\').value"}` gives `{"family": "Medhurst46",',
    '"birthDate": "1927-05-21", "mrn": "129c6ac7-8d06-89de-ad63-0204a93e76c3"}`.',
  ].join('\n'),
  config: Config,
  example: {
    expressions: {
      family: "name.where(use = 'official').family",
      birthDate: 'birthDate',
      mrn: "identifier.where(type.coding.code = 'MR').value",
    },
    mode: 'first',
    each_entry: false,
  },
  ui: { order: ['expressions', 'mode', 'each_entry'], fields: { expressions: { widget: 'json' } } },
  plan: {
    madeFor: 'fhir',
    edit: { cue: /\bfhirpath\b/, names: EXTRACTION_NAMES },
    role: 'step',
    stage: 'work',
    input: 'resource',
    output: 'values',
    jobs: ['extract'],
    takes: (f) => isFhir(f) && !f.list,
    adapt: (f) => (f.type === 'fhir-bundle' ? { each_entry: true } : {}),
    gives: (_f, c) => ({ type: 'json', kind: 'json', list: c.each_entry === true }),
    cue: anyOf(
      /\bfhirpath\b|\bextract\w* (the )?(fields?|values?|names?|mrn|birth ?dates?|identifiers?|dob|gender)\b/,
      /\bpull out (the )?(fields?|mrn|names?)\b|\bflatten\w*/,
    ),
    answers: { 'extract-fields': { when: (a) => (a.data === 'fhir' || a.fhir) && !a.doing('extract'), why: 'FHIR fields read with FHIRPath' } },
    configure: (a) => {
      const expressions: Record<string, string> = {};
      for (const f of a.fields) {
        const [key, path] = FHIRPATHS[f] ?? [];
        if (key && path) expressions[key] = path;
      }
      if (Object.keys(expressions).length) {
        a.config.expressions = { id: 'id', ...expressions };
        a.filled.push(`fields ${Object.keys(expressions).join(', ')}`);
      } else a.missing.push('expressions: the request names no fields to extract (resourceType and id are extracted)');
    },
    outputKey: 'values',
  },
  ports: () => ({
    inputs: [{ name: 'resource', type: 'json', description: 'A FHIR resource or Bundle' }],
    outputs: [{ name: 'values', type: 'json', description: '{name: value} (a list of them with each_entry)' }],
  }),
  errors: {
    FHIR_INVALID: 'the input is not a FHIR resource (an object with a resourceType)',
    FHIRPATH_FAILED: 'an expression failed while running (the message names it and says why)',
  },
});
