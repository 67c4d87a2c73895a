import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({});

export const x12835ToFhir = describeNode({
  id: 'x12-835-to-fhir',
  name: 'X12 835 to FHIR ExplanationOfBenefit',
  idBase: 'to_fhir',
  category: 'claims',
  description: 'Converts the claim payments of an 835 remittance advice into FHIR R4 ExplanationOfBenefit resources, in a collection Bundle.',
  version: '1.0.0',
  keywords: ['x12', '835', 'era', 'remittance', 'payment', 'explanation of benefit', 'eob', 'fhir', 'convert', 'adjustment', 'carc', 'cas'],
  side_effect: 'none',
  documentation: [
    'Makes one FHIR R4 `ExplanationOfBenefit` per claim payment (loop 2100, CLP) of every 835 transaction set,',
    'with the payer (1000A, `insurer`), the payee (1000B, `provider`, with its NPI), the patient (NM1*QC) and a',
    '`Coverage` beside them in a Bundle of type `collection`.',
    '',
    '- CLP02 claim status becomes `disposition` ("Processed as primary", "Denied"…); 22 (reversal) makes the',
    '  status `cancelled`. CLP01 and CLP07 are identifiers.',
    '- `total`: CLP03 charged (`submitted`), CLP04 paid (`benefit`), CLP05 patient responsibility.',
    '- Each CAS adjustment becomes an adjudication whose category is the group code',
    '  (`https://x12.org/codes/claim-adjustment-group-codes`: CO, PR, OA, PI, CR) and whose reason is the',
    '  CARC (`https://x12.org/codes/claim-adjustment-reason-codes`), with its amount: claim-level CAS on the EOB,',
    '  line-level CAS on the item.',
    '- Each service payment (2110 SVC) is an item: procedure and modifiers from SVC01, SVC02 charged, SVC03 paid,',
    '  AMT*B6 allowed (`eligible`), service date from DTM*472 or DTM*150/151.',
    '- `payment`: CLP04 with the BPR16 date and the TRN02 trace number; MIA/MOA remark codes become process notes.',
    '',
    '**Example**: `CLP*5554555444*1*800.00*450.00*300.00*12*94060555410000~CAS*CO*A2*50.00~` gives an EOB with',
    'disposition "Processed as primary", totals 800 / 450 / 300 and an adjudication CO / A2 of 50.00.',
  ].join('\n'),
  config: Config,
  example: {},
  plan: {
    madeFor: 'x12',
    edit: { cue: /\b835\b|\bremittances?\b|\bexplanation ?of ?benefits?\b/ },
    role: 'step',
    stage: 'convert',
    input: 'interchange',
    output: 'bundle',
    jobs: ['to-fhir'],
    search: false,
    converter: 'converts the value',
    takes: (f) => f.kind === 'x12' && f.x12 === '835',
    gives: () => ({ type: 'fhir-bundle', kind: 'fhir', bundle: 'collection' }),
    answers: { 'to-fhir': { when: (a) => a.data === 'x12' && a.x12 === '835', why: 'X12 835 to FHIR' } },
    outputKey: 'remittances',
  },
  ports: () => ({
    inputs: [{ name: 'interchange', type: 'x12-interchange', description: 'An interchange holding at least one 835' }],
    outputs: [
      {
        name: 'bundle',
        type: 'fhir-bundle',
        description: 'Bundle (collection): the ExplanationOfBenefits and the Patients, Organizations and Coverages they reference',
      },
    ],
  }),
  errors: {
    X12_NOT_835: 'the interchange holds no 835 transaction set (the message says which sets it has)',
    X12_VALUE_INVALID: 'the input is not an x12-interchange value (parse X12 text with `x12-parse` first)',
  },
});
