import { describe, expect, it } from 'vitest';
import { claimEdits, isValidNpi, npiProblem, parseX12, X12SetError, type ClaimIssue, type X12Interchange } from './index';
import { x12Sample, x12Samples } from '../../../tests/support/clinical/x12';

function interchange(text: string): X12Interchange {
  const r = parseX12(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.interchange;
}

const TODAY = '2026-01-15';
const edits = (text: string) => claimEdits(interchange(text), { today: TODAY });
const brief = (issues: ClaimIssue[]) => issues.map((i) => `${i.code} @ ${i.location}`);

// demo.example1: billing NPI 1912301953 (valid), four lines adding up to CLM02 100.00, pointers 1 and 2 to two HI codes.
const clean = x12Sample('837_005010X222A2/demo.example1.837');

describe('NPI check digit', () => {
  it('accepts NPIs whose Luhn check over 80840 + the first nine digits holds', () => {
    expect(isValidNpi('1234567893')).toBe(true); // CMS's worked example
    expect(isValidNpi('1912301953')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(npiProblem('123456789')).toBe('has 9 digits, not 10');
    expect(npiProblem('B99937')).toBe('is not all digits');
    expect(npiProblem('1234567890')).toMatch(/check digit/);
  });
});

describe('claim edits', () => {
  it('find nothing wrong with a clean claim', () => {
    expect(edits(clean)).toEqual([]);
  });

  it('a malformed NPI, named by loop, segment and element', () => {
    const issues = edits(clean.replace('XX*1912301953', 'XX*1912301954'));
    expect(issues).toEqual([
      {
        severity: 'error',
        code: 'NPI_INVALID',
        message: 'NPI "1912301954" of billing provider name fails the check digit (Luhn over 80840 and the first nine digits)',
        loop: '2010AA',
        segment: 'NM1',
        element: 'NM109',
        value: '1912301954',
        location: '2010AA NM1 NM109',
      },
    ]);
  });

  it('a missing billing NPI is an error in 5010', () => {
    const issues = edits(clean.replace('NM1*85*2*BEN KILDARE SERVICE*****XX*1912301953', 'NM1*85*2*BEN KILDARE SERVICE*****24*587654321'));
    expect(issues).toMatchObject([{ severity: 'error', code: 'NPI_MISSING', location: '2010AA NM1 NM108' }]);
  });

  it('line charges that do not add up to CLM02', () => {
    const issues = edits(clean.replace('SV1*HC:87070*15.00', 'SV1*HC:87070*25.00'));
    expect(issues).toMatchObject([
      { code: 'TOTAL_MISMATCH', claim: '26463774', location: '2300 CLM CLM02', message: 'CLM02 100.00 is not the sum of the 4 line charges (SV102): 110.00' },
    ]);
  });

  it('institutional lines add up SV203', () => {
    const text = x12Sample('837_005010X223A3/two-claims-single-provider.837i');
    expect(edits(text).filter((i) => i.code === 'TOTAL_MISMATCH')).toEqual([]);
    const issues = edits(text.replace('CLM*756049Q*50.00', 'CLM*756049Q*50.01'));
    expect(issues.filter((i) => i.code === 'TOTAL_MISMATCH')).toMatchObject([
      { claim: '756049Q', message: 'CLM02 50.01 is not the sum of the 1 line charge (SV203): 50.00' },
    ]);
  });

  it('impossible dates: not a calendar date, in the future, after the claim was created, reversed ranges, before birth', () => {
    const text = clean
      .replace('DTP*472*D8*20061003~\nLX*2', 'DTP*472*D8*20060230~\nLX*2') // line 1: 30 February
      .replace('DTP*472*D8*20061003~\nLX*3', 'DTP*472*D8*20300101~\nLX*3') // line 2: in the future
      .replace('DTP*472*D8*20061010~\nLX*4', 'DTP*472*RD8*20061012-20061001~\nLX*4') // line 3: range ends before it starts
      .replace('DMG*D8*19730501', 'DMG*D8*20061011'); // the patient born the day after line 4's service
    expect(brief(edits(text))).toEqual([
      'DATE_INVALID @ 2400 DTP (line 1) DTP03',
      'DATE_IN_FUTURE @ 2400 DTP (line 2) DTP03',
      'DATE_AFTER_CREATION @ 2400 DTP (line 2) DTP03',
      'DATE_RANGE_REVERSED @ 2400 DTP (line 3) DTP03',
      'DATE_BEFORE_BIRTH @ 2400 DTP (line 4) DTP03',
    ]);
    expect(edits(text)[0]!.message).toBe('DTP03 "20060230" is not a calendar date (CCYYMMDD)');
  });

  it('a service date after the statement period (DTP*434)', () => {
    const text = x12Sample('837_005010X223A3/two-claims-single-provider.837i').replace('DTP*472*D8*20050401', 'DTP*472*D8*20050402');
    expect(edits(text).filter((i) => i.code.startsWith('DATE'))).toMatchObject([
      {
        code: 'DATE_AFTER_STATEMENT',
        claim: '756049Q',
        line: 1,
        location: '2400 DTP (line 1) DTP03',
        message: 'Service date 2005-04-02 is after the statement period ends (2005-04-01, 2300 DTP*434)',
      },
    ]);
  });

  it('a diagnosis pointer with no diagnosis, by line and component', () => {
    const issues = edits(clean.replace('SV1*HC:86663*10.00*UN*1.00***2', 'SV1*HC:86663*10.00*UN*1.00***2:5'));
    expect(issues).toMatchObject([
      {
        code: 'DIAGNOSIS_POINTER_MISSING',
        line: 4,
        element: 'SV107-2',
        value: '5',
        location: '2400 SV1 (line 4) SV107-2',
        message: 'Diagnosis pointer "5" points to no diagnosis: the claim has 2 diagnosis codes',
      },
    ]);
  });

  it('refuses an interchange with no 837', () => {
    expect(() => claimEdits(interchange(x12Sample('835_005010X221A1/managed-care.835')))).toThrow(X12SetError);
  });
});

describe('claim edits on every 837 sample (these public samples carry made-up identifiers)', () => {
  const results = x12Samples('837').map((s) => ({ name: s.name, issues: edits(s.text) }));
  const byCode = (code: string) => results.flatMap((r) => r.issues.filter((i) => i.code === code).map((i) => `${r.name.split('/')[1]} ${i.location}`));

  it('find what is really wrong in them', () => {
    const count: Record<string, number> = {};
    for (const i of results.flatMap((r) => r.issues)) count[i.code] = (count[i.code] ?? 0) + 1;
    expect(count).toEqual({ NPI_INVALID: 35, NPI_MISSING: 2, DATE_BEFORE_STATEMENT: 3, COMPOSITE_SEPARATOR: 6, DIAGNOSIS_POINTER_MISSING: 1 });
    expect(results.filter((r) => r.issues.length === 0).map((r) => r.name)).toEqual([
      '837_005010X222A2/demo.drug.example10.1.837',
      '837_005010X222A2/demo.drug.example10.3.837',
      '837_005010X222A2/demo.example1.837',
    ]);
  });

  it('every claim total adds up, in every sample', () => {
    expect(byCode('TOTAL_MISMATCH')).toEqual([]);
  });

  it('demo.example12 writes its composites with ">" though its ISA16 is ":", so its diagnosis pointer points nowhere', () => {
    expect(byCode('COMPOSITE_SEPARATOR').filter((s) => s.startsWith('demo.example12'))).toEqual([
      'demo.example12.837 2300 CLM CLM05',
      'demo.example12.837 2300 HI HI01',
      'demo.example12.837 2400 SV1 SV101',
    ]);
    expect(byCode('DIAGNOSIS_POINTER_MISSING')).toEqual(['demo.example12.837 2400 SV1 (line 1) SV107-1']);
  });

  it('4010 billing providers identified by EIN are warnings, 4010 automobile-accident has services before its statement date', () => {
    expect(
      results
        .flatMap((r) => r.issues)
        .filter((i) => i.code === 'NPI_MISSING')
        .map((i) => i.severity),
    ).toEqual(['warning', 'warning']);
    expect(byCode('DATE_BEFORE_STATEMENT')).toEqual([
      'automobile-accident.837 2400 DTP (line 1) DTP03',
      'automobile-accident.837 2400 DTP (line 3) DTP03',
      'automobile-accident.837 2400 DTP (line 4) DTP03',
    ]);
  });
});
