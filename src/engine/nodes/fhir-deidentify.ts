import { z } from 'zod';
import { ruleProblem } from '@/clinical/deid/fhir-rules';
import { describeNode, type PortType } from '../node-descriptor';
import { digits, fhirTyped, isFhir, pass, type ConfigureAsk } from '../node-plan';

const ACTIONS = ['redact', 'hash', 'date-shift', 'birth-date', 'zip3', 'region', 'scrub', 'keep'] as const;

const Rule = z.object({
  path: z
    .string()
    .min(1)
    .superRefine((path, ctx) => {
      const problem = ruleProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('FHIRPath from each resource, selecting elements or ending in a field name: "Patient.extension.where(url = \'…\')", "Observation.note.text"'),
  action: z
    .enum(ACTIONS)
    .describe(
      [
        'redact, hash (keyed pseudonym; on a whole resource, each string of its own), date-shift,',
        'birth-date, zip3, region (a state or country kept when it reads as one), scrub (free text), keep',
      ].join(' '),
    ),
});

const Config = z.object({
  preset: z
    .enum(['safe-harbor', 'none'])
    .default('safe-harbor')
    .describe('safe-harbor: the built-in rules for the 18 HIPAA Safe Harbor identifiers, applied after yours; none: only your rules'),
  rules: z
    .array(Rule)
    .max(200)
    .default([])
    .describe('Your rules, applied before the preset: the first rule that reaches a field decides it (use "keep" to exempt one)'),
  date_shift_days: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(365)
    .describe(
      "Dates move by up to this many days, forwards or backwards (never 0): the same number for all of one patient's data, derived from the organization's key",
    ),
  keep_birth_year: z.boolean().default(true).describe('Birth dates become the year alone (Safe Harbor keeps years); off: they are shifted like other dates'),
  over_89: z
    .enum(['boundary', 'remove'])
    .default('boundary')
    .describe('Birth dates of people older than 89: boundary writes the year 90 years before the date of death or today; remove drops them'),
  patient_identity: z
    .enum(['mrn', 'id'])
    .default('mrn')
    .describe(
      [
        "What a patient's date shift derives from: mrn, the Patient's MR identifier when the Patient is in",
        "the input (links with HL7 v2 PID-3), else the referenced id; id, always the Patient's logical id",
      ].join(' '),
    ),
  expect: z
    .enum(['any', 'resource', 'bundle'])
    .default('any')
    .describe('What the input is: any FHIR resource or Bundle; a single resource; or a Bundle. Sets the port types'),
  on_invalid: z.enum(['route', 'fail']).default('route').describe('route: send input that is not a FHIR resource out of "invalid"; fail: stop the execution'),
});

const TYPE: Record<'any' | 'resource' | 'bundle', PortType> = { any: 'any', resource: 'fhir-resource', bundle: 'fhir-bundle' };

/** What a request says of de-identification (how far dates shift, birth years kept), for both de-identify nodes. */
export function deidentifyFromRequest(a: ConfigureAsk): void {
  const shift = digits(/\bshift\w*[^.]{0,30}?\b(\d{1,4})\s*days?\b/, a.lower);
  if (shift && shift >= 1 && shift <= 3650) {
    a.config.date_shift_days = shift;
    a.filled.push(`dates shifted up to ${shift} days`);
  }
  if (/\bremove (the )?birth ?dates?|\bno birth year\b/.test(a.lower)) a.config.keep_birth_year = false;
}

export const fhirDeidentify = describeNode({
  id: 'fhir-deidentify',
  name: 'FHIR de-identify',
  idBase: 'deidentify',
  category: 'healthcare',
  description: [
    'De-identifies FHIR R4 resources and bundles by HIPAA Safe Harbor: names and contacts removed, identifiers',
    "hashed with the organization's key, dates shifted per patient, ZIP to 3 digits, free text scrubbed.",
  ].join(' '),
  version: '1.0.0',
  keywords: [
    'fhir',
    'r4',
    'deidentify',
    'de-identification',
    'anonymize',
    'pseudonymize',
    'hipaa',
    'safe harbor',
    'phi',
    'privacy',
    'redact',
    'hash',
    'date shift',
    'research',
  ],
  side_effect: 'none',
  documentation: [
    'Applies rules written in FHIRPath to each resource (each entry of a Bundle). With the `safe-harbor` preset:',
    "- **names** (every HumanName, mother's maiden name, Organization and Location names) are removed, and the",
    '  `display` of references scrubbed, so `"Dr. Liane379 Kunze215"` becomes `"Dr. [NAME] [NAME]"`; an Organization',
    '  known by its name alone, and a Patient contact known by its name or phone alone, keep a name marked withheld',
    '  (data-absent-reason `masked`), as R4 requires one;',
    '- **addresses** keep only state and country, with `postalCode` cut to 3 digits (`66801` → `668`; the 17',
    '  three-digit areas of 20,000 people or fewer → `000`); geolocation and `Location.position` are removed;',
    '- **telecom** (phones, faxes, emails, URLs) is removed;',
    '- **identifiers**, resource ids and references are replaced by an HMAC-SHA256 pseudonym under your',
    "  organization's secret key, shaped as a UUID: the same value gives the same pseudonym in every message (and in",
    '  `hl7v2-deidentify`), references still resolve (`Patient/<pseudonym>`, `urn:uuid:<pseudonym>`), and nobody',
    '  without the key can reverse or recompute them; device UDIs are removed, serial and lot numbers hashed;',
    '- **the resources that describe a person** — Patient, RelatedPerson (next of kin, guarantors, policy holders,',
    '  employers the HL7 converter makes), Person, Coverage, Account — are handled by construction: besides their',
    '  names, addresses, telecom, identifiers and dates (above), every string of their own, in their fields and',
    '  backbone elements as the R4 model types them, is hashed — `Coverage.subscriberId` (the member number, the same',
    '  pseudonym as IN1-49 in `hl7v2-deidentify`), `dependent`, `network`, `class.value` and `class.name`,',
    "  `Account.name`…; codes stay; prior-authorization numbers and an audit agent's `altId` are hashed too;",
    "- **practitioners and organizations** are treated as the people and places they are: a Practitioner's names,",
    "  telecom and address lines go and its identifiers (NPI) are hashed, like a patient's; an Organization or",
    '  Location loses its name and aliases (an employer, a small practice named after its doctor, a clinic in a small',
    '  town narrow down who the patient is), keeps its type, state and 3-digit ZIP, and its identifiers are hashed;',
    '  `state` and `country` are kept only when they read as one (a ZIP code put in `country` goes);',
    "- **dates** move by the patient's shift (up to `date_shift_days`, never 0, the same for all of one patient's",
    "  resources, derived from the key and the patient's MRN); birth dates keep the year (`keep_birth_year`), and",
    '  people older than 89 get the year 90 years back (`over_89`);',
    '- **free text** — narratives (`text.div`), annotations, text attachments (`Attachment.data` decoded from base64,',
    '  scrubbed, encoded again; binary attachments removed), extension strings and every other string — has the names, identifiers,',
    '  phones and addresses found in the input replaced (`[NAME]`, `[ID]`…), and phones, emails, SSNs, MRNs and URLs',
    '  by pattern; dates in text move with the shift.',
    '',
    'Your `rules` come first (`{"path": "Observation.note", "action": "redact"}`; `keep` exempts a field;',
    '`hash` on a whole resource, as in `{"path": "Coverage", "action": "hash"}`, hashes each string of its own). Send a',
    "patient's resources together (a Bundle) for the best scrubbing: a note is scrubbed of the names the Bundle holds.",
    'Input that is not a FHIR resource leaves by `invalid` as `{value, error}` (or fails, with `on_invalid: fail`).',
    '',
    '**Example**: the Synthea Patient `{"id": "129c6ac7-…", "name": [{"family": "Medhurst46"}], "birthDate":',
    '"1927-05-21", "deceasedDateTime": "1989-05-09T20:35:22-04:00", "address": [{"line": ["633 Abernathy Landing"],',
    '"city": "Emporia", "state": "KS", "postalCode": "66801"}]}` becomes `{"id": "<uuid pseudonym>", "birthDate":',
    '"1927", "deceasedDateTime": "<1989-05-09 ± shift>T20:35:22-04:00", "address": [{"state": "KS", "postalCode":',
    '"668"}]}`, and its Conditions\' `subject` becomes `Patient/<the same pseudonym>`.',
  ].join('\n'),
  config: Config,
  example: {
    preset: 'safe-harbor',
    rules: [{ path: 'Patient.communication', action: 'keep' }],
    date_shift_days: 180,
    keep_birth_year: true,
    over_89: 'boundary',
    patient_identity: 'mrn',
    expect: 'bundle',
    on_invalid: 'route',
  },
  ui: {
    order: ['preset', 'rules', 'date_shift_days', 'keep_birth_year', 'over_89', 'patient_identity', 'expect', 'on_invalid'],
    fields: { rules: { widget: 'json' } },
  },
  plan: {
    madeFor: 'fhir',
    role: 'step',
    stage: 'deidentify',
    input: 'resource',
    output: 'resource',
    jobs: ['deidentify'],
    takes: (f) => isFhir(f) && !f.list,
    adapt: (f) => (fhirTyped(f) === 'any' ? {} : { expect: fhirTyped(f) }),
    gives: pass,
    answers: { deidentify: { when: () => true, why: 'the data is FHIR by then', fallback: true } },
    configure: deidentifyFromRequest,
  },
  ports: (config) => ({
    inputs: [{ name: 'resource', type: TYPE[config.expect], description: 'A FHIR R4 resource or Bundle' }],
    outputs: [
      { name: 'resource', type: TYPE[config.expect], description: 'The de-identified resource or Bundle' },
      { name: 'invalid', type: 'json', description: '{value, error} when the input is not a FHIR resource' },
    ],
  }),
  portsNote: 'Both `resource` ports are `any` by default, `fhir-resource` when `expect` is `resource`, `fhir-bundle` when it is `bundle`.',
  errors: {
    FHIR_INVALID: 'the input is not a FHIR resource (of the expected kind) and `on_invalid` is `fail`',
    DEID_RULE_FAILED: 'a rule could not be applied (its FHIRPath failed on this resource, or selects values it cannot place)',
  },
});
