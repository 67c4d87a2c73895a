import { describe, expect, it } from 'vitest';
import { birthDateOutcome, pseudonym, shiftDays, shiftFhirDate, shiftHl7Date } from './keyed';
import { zip3 } from './zip3';

const key = new Uint8Array(32).fill(1);

describe('keyed pseudonyms and date shifts', () => {
  it('pseudonymizes the same value alike (trimmed), other values and other keys differently, as a UUID', () => {
    expect(pseudonym(key, 'PATID1234')).toBe(pseudonym(key, ' PATID1234 '));
    expect(pseudonym(key, 'PATID1234')).not.toBe(pseudonym(key, 'PATID1235'));
    expect(pseudonym(key, 'PATID1234')).not.toBe(pseudonym(new Uint8Array(32).fill(2), 'PATID1234'));
    expect(pseudonym(key, 'x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('shifts by a non-zero number of days within the range, spread over both directions', () => {
    const shifts = Array.from({ length: 500 }, (_, i) => shiftDays(key, `patient-${i}`, 30));
    expect(shifts.every((s) => s !== 0 && Math.abs(s) <= 30)).toBe(true);
    expect(shifts.some((s) => s < 0) && shifts.some((s) => s > 0)).toBe(true);
    expect(new Set(shifts).size).toBeGreaterThan(40);
    expect(shiftDays(key, 'patient-1', 30)).toBe(shifts[1]);
  });

  it('moves FHIR and HL7 dates by whole days, keeping precision, time and offset; a year alone stays', () => {
    expect(shiftFhirDate('2024-02-28T10:15:00-05:00', 2)).toBe('2024-03-01T10:15:00-05:00');
    expect(shiftFhirDate('2024-01-05', -10)).toBe('2023-12-26');
    expect(shiftFhirDate('2024-01', 40)).toBe('2024-02');
    expect(shiftFhirDate('1927', 40)).toBe('1927');
    expect(shiftHl7Date('198808181126+0215', 20)).toBe('198809071126+0215');
    expect(shiftHl7Date('20240105', -5)).toBe('20231231');
  });

  it('keeps a shifted date a valid FHIR date at the ends of the years FHIR allows (the "no end" 9999-12-31, years before 100)', () => {
    expect(shiftFhirDate('9999-12-31', 3)).toBe('9999-12-28');
    expect(shiftFhirDate('9999-12-31T00:00:00Z', 1)).toBe('9999-12-30T00:00:00Z');
    expect(shiftFhirDate('0001-01-02', -5)).toBe('0001-01-07');
    expect(shiftFhirDate('0050-03-01', -1)).toBe('0050-02-28');
  });

  it('keeps the birth year, caps people over 89 at the 90-year boundary or removes them', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(birthDateOutcome({ y: 1960, m: 4, d: 13 }, at, { keepYear: true, over89: 'boundary' })).toEqual({ year: 1960 });
    expect(birthDateOutcome({ y: 1960, m: 4, d: 13 }, at, { keepYear: false, over89: 'boundary' })).toEqual({ shift: true });
    expect(birthDateOutcome({ y: 1936, m: 1, d: 2 }, at, { keepYear: true, over89: 'boundary' })).toEqual({ year: 1936 }); // 89 until tomorrow
    expect(birthDateOutcome({ y: 1935, m: 12, d: 31 }, at, { keepYear: true, over89: 'boundary' })).toEqual({ year: 1936 }); // 90 since yesterday
    expect(birthDateOutcome({ y: 1930, m: 1, d: 1 }, at, { keepYear: true, over89: 'boundary' })).toEqual({ year: 1936 });
    expect(birthDateOutcome({ y: 1930, m: 1, d: 1 }, at, { keepYear: true, over89: 'remove' })).toBeUndefined();
  });

  it('cuts ZIP codes to 3 digits, 000 for the small areas, and drops what is not a US ZIP', () => {
    expect([zip3('66801'), zip3('668012504'), zip3('66801-2504'), zip3('03601'), zip3('89301'), zip3('K1A 0B1')]).toEqual([
      '668',
      '668',
      '668',
      '000',
      '000',
      undefined,
    ]);
  });
});
