import { describe, expect, it } from 'vitest';
import { parseX12, type ClaimIssue, type X12Interchange } from '@/clinical/x12';
import { x12Sample, x12Samples } from '../../../tests/support/clinical/x12';
import { claimValidateNode as claimValidate } from './claim-validate.execute';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';

function interchange(text: string): X12Interchange {
  const r = parseX12(text);
  if (!r.ok) throw new Error('does not parse');
  return r.interchange;
}

const clean = x12Sample('837_005010X222A2/demo.example1.837');

describe('claim-validate', () => {
  it('works with its default config: a clean claim goes out of valid unchanged', async () => {
    const ic = interchange(clean);
    const r = await runNode(claimValidate, {}, { interchange: ic });
    expect(r.outputs).toEqual({ valid: ic });
  });

  it('routes a claim with errors to invalid, each issue naming loop, segment, element and line', async () => {
    const ic = interchange(clean.replace('SV1*HC:86663*10.00*UN*1.00***2', 'SV1*HC:86663*10.00*UN*1.00***2:7').replace('XX*1912301953', 'XX*191230195'));
    const r = await runNode(claimValidate, {}, { interchange: ic });
    const { interchange: value, issues } = r.outputs.invalid as { interchange: X12Interchange; issues: ClaimIssue[] };
    expect(value).toBe(ic);
    expect(issues.map((i) => [i.code, i.location, i.message])).toEqual([
      ['NPI_INVALID', '2010AA NM1 NM109', 'NPI "191230195" of billing provider name has 9 digits, not 10'],
      ['DIAGNOSIS_POINTER_MISSING', '2400 SV1 (line 4) SV107-2', 'Diagnosis pointer "7" points to no diagnosis: the claim has 2 diagnosis codes'],
    ]);
  });

  it('with on_invalid "fail" stops with CLAIM_INVALID listing the issues', async () => {
    const ic = interchange(clean.replace('CLM*26463774*100.00', 'CLM*26463774*90.00'));
    const e = await failure(runNode(claimValidate, { on_invalid: 'fail' }, { interchange: ic }));
    expect(e).toMatchObject({
      code: 'CLAIM_INVALID',
      message: 'Claim edits failed: claim 26463774 2300 CLM CLM02: CLM02 90.00 is not the sum of the 4 line charges (SV102): 100.00',
    });
  });

  it('as_of decides what is in the future; warnings alone still go out of valid, logged', async () => {
    const ic = interchange(clean);
    const past = await runNode(claimValidate, { as_of: '2006-10-05' }, { interchange: ic });
    expect((past.outputs.invalid as { issues: ClaimIssue[] }).issues.map((i) => `${i.code} ${i.location}`)).toEqual([
      'DATE_IN_FUTURE header BHT BHT04',
      'DATE_IN_FUTURE 2400 DTP (line 3) DTP03',
      'DATE_IN_FUTURE 2400 DTP (line 4) DTP03',
    ]);
    const ctx = testContext();
    const ein = interchange(x12Sample('837_004010X098A1/coordination-of-benefits.837'));
    const r = await runNode(claimValidate, {}, { interchange: ein }, ctx);
    expect(Object.keys(r.outputs)).toEqual(['valid']);
    expect(ctx.logs[0]).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('2010AA NM1 NM108: The billing provider is identified by 24 587654321, not an NPI'),
    });
  });

  it('on the 22 837 samples: 5 pass (2 of them with warnings only), 17 have errors a payer would reject', async () => {
    let valid = 0;
    for (const { text } of x12Samples('837')) {
      const r = await runNode(claimValidate, { as_of: '2026-01-15' }, { interchange: interchange(text) });
      if ('valid' in r.outputs) valid++;
    }
    expect(valid).toBe(5);
  });

  it('fails with X12_NOT_837 on an 835', async () => {
    expect((await failure(runNode(claimValidate, {}, { interchange: interchange(x12Sample('835_005010X221A1/managed-care.835')) }))).code).toBe('X12_NOT_837');
  });
});
