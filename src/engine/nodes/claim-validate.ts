import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { pass } from '../node-plan';

const Config = z.object({
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send an interchange with claim errors out of "invalid" with the issues; fail: stop the execution with them'),
  as_of: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
    .optional()
    .describe(
      'The day after which a date counts as in the future (YYYY-MM-DD); by default the day the node runs. Set it to re-check a past batch as of its day',
    ),
});

export const claimValidate = describeNode({
  id: 'claim-validate',
  name: 'Claim validate',
  idBase: 'claim_edits',
  category: 'claims',
  description: [
    'Runs claim edits on an 837 (NPIs, impossible dates, line totals, diagnosis pointers)',
    'and routes it to valid or invalid, each issue naming its loop, segment and element.',
  ].join(' '),
  version: '1.0.0',
  keywords: ['claim', 'edit', 'scrubber', 'validate', '837', 'npi', 'luhn', 'dates', 'totals', 'diagnosis pointer', 'x12', 'quality', 'quarantine'],
  side_effect: 'none',
  documentation: [
    'Checks every claim (loop 2300) of every 837 in the interchange before it goes to a payer:',
    '',
    '- **NPIs**: every provider identified as an NPI (NM108 = XX) has 10 digits and a valid check digit (Luhn',
    '  over 80840 and the first nine digits); the billing provider (2010AA) has an NPI at all (an error in 5010,',
    '  a warning in 4010, which allowed a tax id).',
    '- **Dates**: CCYYMMDD dates that are real calendar dates, not in the future, ranges (RD8) that run forward,',
    '  service dates (2400 DTP*472) within the statement period (2300 DTP*434), not after the claim was created',
    "  (BHT04), not before the patient's birth (DMG02).",
    '- **Totals**: CLM02 equals the sum of the line charges (SV102 for professional, SV203 for institutional).',
    "- **Diagnosis pointers**: each SV107 pointer names one of the claim's HI diagnosis codes.",
    '- **Composites** written with another separator than ISA16 (which makes a code unreadable).',
    '',
    'An interchange with no error goes out of `valid` unchanged (warnings are logged). Otherwise `invalid` gets',
    '`{"interchange": …, "issues": [{"severity": "error", "code": "DIAGNOSIS_POINTER_MISSING", "claim":',
    '"26463774", "loop": "2400", "segment": "SV1", "line": 4, "element": "SV107-2", "value": "5", "location":',
    '"2400 SV1 (line 4) SV107-2", "message": "Diagnosis pointer \\"5\\" points to no diagnosis: the claim has 2',
    'diagnosis codes"}]}`. Codes: NPI_MISSING, NPI_INVALID, DATE_INVALID, DATE_RANGE_REVERSED, DATE_IN_FUTURE,',
    'DATE_AFTER_STATEMENT, DATE_BEFORE_STATEMENT, DATE_AFTER_CREATION, DATE_BEFORE_BIRTH, AMOUNT_INVALID,',
    'TOTAL_MISMATCH, DIAGNOSIS_POINTER_MISSING, COMPOSITE_SEPARATOR.',
    '',
    '**Example**: `X12 parse` → Claim validate → `valid` to `x12-837-to-fhir`, `invalid` to a work queue.',
  ].join('\n'),
  config: Config,
  example: { on_invalid: 'route', as_of: '2026-01-15' },
  plan: {
    madeFor: 'x12',
    edit: { cue: /\bclaim (edits?|checks?|validation|scrub\w*)|\bscrub\w*/, names: /\bclaim (edits?|checks?|validation|scrub\w*)|\bedits\b/ },
    role: 'step',
    stage: 'raw',
    input: 'interchange',
    output: 'valid',
    aside: 'invalid',
    jobs: ['validate'],
    takes: (f) => f.kind === 'x12' && f.x12 !== '835',
    gives: pass,
    answers: {
      validate: {
        when: (a) =>
          a.data === 'x12' &&
          a.x12 !== '835' &&
          (/\bclaim|\bscrub|\bedits?\b|\b837/.test(a.clause) || !/\bfhir|\bresources?\b|\bprofile|\bus core/.test(a.clause)),
        why: 'claims are checked by claim edits',
      },
    },
  },
  ports: () => ({
    inputs: [{ name: 'interchange', type: 'x12-interchange', description: 'An interchange holding at least one 837' }],
    outputs: [
      { name: 'valid', type: 'x12-interchange', description: 'The interchange, when no claim has an error' },
      {
        name: 'invalid',
        type: 'json',
        description: '{interchange, issues: [{severity, code, message, claim, loop, segment, element, line, value, location}]}',
      },
    ],
  }),
  errors: {
    CLAIM_INVALID: 'a claim has errors and `on_invalid` is fail (the message lists them with their locations)',
    X12_NOT_837: 'the interchange holds no 837 transaction set',
    X12_VALUE_INVALID: 'the input is not an x12-interchange value (parse X12 text with `x12-parse` first)',
  },
});
