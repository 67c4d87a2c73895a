import { describe, expect, it } from 'vitest';
import { KnownIdentifiers, Scrubber } from './scrub';
import { phiValues, syntheaRecords } from '../../../tests/support/clinical/deid';

describe('free-text scrubbing', () => {
  const known = new KnownIdentifiers();
  known.add('NAME', 'Dr. Liane379 Kunze215');
  known.add('NAME', 'NEWMAN REGIONAL HEALTH', false);
  known.add('ADDRESS', '633 Abernathy Landing');
  known.add('ID', 'S99940903');
  known.add('ID', '12'); // too short to tell from ordinary numbers: ignored

  it('replaces what the record knows, word by word for people and whole for places', () => {
    const s = new Scrubber(known);
    expect(s.scrub('Seen by Liane379 Kunze215 at Newman Regional Health; lives at 633 ABERNATHY LANDING; DL S99940903; 12 mg')).toBe(
      'Seen by [NAME] [NAME] at [NAME]; lives at [ADDRESS]; DL [ID]; 12 mg',
    );
    expect(s.scrub('regional health matters')).toBe('regional health matters');
  });

  it('replaces phones, emails, SSNs, MRNs and URLs by pattern, and ages over 89', () => {
    const s = new Scrubber(new KnownIdentifiers());
    expect(
      s.scrub(
        'Call (555) 810-7203 or 555.478.8993, mail jo@example.com, SSN 999-94-5397, MRN: A12345, see https://x.org/p?id=1. A 94 year-old; 325 mg; code 2106-3',
      ),
    ).toBe('Call [PHONE] or [PHONE], mail [EMAIL], SSN [SSN], MRN [ID], see [URL] A 90+ year-old; 325 mg; code 2106-3');
  });

  it('shifts dates with the patient when it can, and replaces them when it cannot', () => {
    const shifted = new Scrubber(new KnownIdentifiers(), { shiftIso: (iso) => (iso.startsWith('1987-11-19') ? iso.replace('1987-11-19', '1987-12-01') : iso) });
    expect(shifted.scrub('1987-11-19 visit, seen 11/19/1987; on March 3, 2001')).toBe('1987-12-01 visit, seen 12/1/1987; on [DATE]');
    expect(new Scrubber(new KnownIdentifiers()).scrub('born 1927-05-21')).toBe('born [DATE]');
  });

  it('finds known values in ASCII text exactly where the regex of all of them does', () => {
    const strings = (v: unknown): string[] =>
      typeof v === 'string' ? [v, Buffer.from(v, 'base64').toString('latin1')] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
    const by = (m: string) => `<${m}>`;
    let compared = 0;
    for (const record of syntheaRecords().slice(0, 3)) {
      const k = new KnownIdentifiers();
      for (const [value, kind] of phiValues(record)) k.add(kind === 'name' ? 'NAME' : 'ID', value);
      k.add('PHONE', '(555) 810-7203');
      k.add('NAME', 'O.Neil-Smith');
      k.add('NAME', 'Jane Roe');
      const texts = [
        ...strings(record),
        'x(555) 810-7203',
        '(555) 810-72034',
        'o.neil-smithy O.NEIL-SMITH_2 Bob.o.neil-smith',
        'Dr. Jane Roe, jane roes, Jane  Roe',
      ];
      for (const t of texts) {
        const fast = k.replaceAscii(t, by);
        if (fast === undefined) continue;
        expect(fast).toBe(t.replace(k.regex()!, by));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2_000);
    expect(known.replaceAscii('Café Liane379', (m) => m)).toBeUndefined(); // not ASCII: the regex decides
  }, 60_000);
});
