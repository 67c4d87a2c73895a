import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({});

export const x12837ToFhir = describeNode({
  id: 'x12-837-to-fhir',
  name: 'X12 837 to FHIR Claim',
  idBase: 'to_fhir',
  category: 'claims',
  description: 'Converts the claims of an 837 (professional or institutional, 4010 or 5010) into FHIR R4 Claim resources, in a collection Bundle.',
  version: '1.0.0',
  keywords: ['x12', '837', '837p', '837i', 'claim', 'fhir', 'convert', 'professional', 'institutional', 'billing', 'icd-10', 'cpt', 'hcpcs'],
  side_effect: 'none',
  documentation: [
    'Makes one FHIR R4 `Claim` per claim (loop 2300) of every 837 transaction set in the interchange, and puts',
    'beside them, once each, the resources they point to: the billing provider (`Organization`, or',
    '`Practitioner` for a person) with its NPI (`http://hl7.org/fhir/sid/us-npi`) and tax id, the subscriber and',
    'the patient (`Patient`, with birth date and gender from DMG), the payer (`Organization`), the `Coverage`',
    '(member id, group, relationship; one more per other payer of loop 2320), rendering / attending / referring',
    'providers as the care team, the service facility (`Location`). The result is a Bundle of type `collection`',
    'whose entries reference each other by `urn:uuid:` full URLs; the ids are derived from the interchange, so',
    'converting the same file twice gives the same ids.',
    '',
    'Diagnoses come from HI: ICD-10-CM for ABK/ABF/ABJ/APR/ABN, ICD-9-CM for BK/BF/BJ/PR/BN, written with the',
    'decimal point (`HI*ABK:J020` → `J02.0`), the principal one typed `principal`; ICD procedure codes',
    '(BBR/BBQ/BR/BQ) become `Claim.procedure`. Service lines (2400) become items: SV1 procedure (CPT when five',
    'digits, else HCPCS; NDC for N4), modifiers, charge as `net`, units, place of service, diagnosis pointers as',
    '`diagnosisSequence`; SV2 revenue code (NUBC) with its procedure; DTP*472 as the service date. CLM02 is',
    "`total`, DTP*434 (or the lines' first and last dates) `billablePeriod`, CLM11 with DTP*439 the accident.",
    'Every resource passes FHIR R4 validation. What cannot be carried over (a pointer to no diagnosis) is logged.',
    '',
    '**Example**: `X12 parse` → this node → `fhir-validate` → a FHIR server write; for',
    '`CLM*26463774*100.00***11:B:1*Y*A*Y*I` with four `SV1*HC:99213*40.00*UN*1.00***1` lines the Claim has',
    '`total.value` 100, four items with CPT codes, and `diagnosis` 034.0 (principal) and V73.89.',
  ].join('\n'),
  config: Config,
  example: {},
  plan: {
    madeFor: 'x12',
    suits: (f) => f.x12 !== '835',
    role: 'step',
    stage: 'convert',
    input: 'interchange',
    output: 'bundle',
    jobs: ['to-fhir'],
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'x12' && f.x12 !== '835',
    gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'collection' }),
    answers: { 'to-fhir': { when: (a) => a.data === 'x12' && a.x12 !== '835', why: 'X12 837 to FHIR' } },
    outputKey: 'claims',
  },
  ports: () => ({
    inputs: [{ name: 'interchange', type: 'x12-interchange', description: 'An interchange holding at least one 837' }],
    outputs: [
      {
        name: 'bundle',
        type: 'fhir-bundle',
        description: 'Bundle (collection): the Claims and the Patients, Organizations, Practitioners, Locations and Coverages they reference',
      },
    ],
  }),
  errors: {
    X12_NOT_837: 'the interchange holds no 837 transaction set (the message says which sets it has)',
    X12_VALUE_INVALID: 'the input is not an x12-interchange value (parse X12 text with `x12-parse` first)',
  },
});
