import { describe, expect, it } from 'vitest';
import { decode, get, getAll, parseMessage, serialize, type Hl7v2Message } from '@/clinical/hl7v2';
import { hl7Sample, hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { formatIssue, validateFhir } from '@/clinical/fhir/validate';
import { convertMessage, SUPPORTED_TYPES } from '@/clinical/hl7v2-fhir';
import { deidentifyFhir } from './fhir';
import { deidentifyHl7v2 } from './hl7v2';
import { pseudonym } from './keyed';

const key = new Uint8Array(32).fill(7);
const now = new Date('2026-01-01T00:00:00Z');

/** Names, identifiers, street lines, cities, phones and the exact birth date the identifying segments carry. */
function phi(m: Hl7v2Message): string[] {
  const paths = [
    ...['PID-2.1', 'PID-3.1', 'PID-4.1', 'PID-5.1', 'PID-5.2', 'PID-6.1', 'PID-9.1', 'PID-11.1', 'PID-11.3', 'PID-13.1', 'PID-13.7'],
    ...['PID-14.1', 'PID-19', 'PID-20.1', 'NK1-2.1', 'NK1-2.2', 'NK1-4.1', 'NK1-4.3', 'NK1-5.1', 'NK1-30.1', 'NK1-33.1'],
    ...['GT1-2.1', 'GT1-3.1', 'GT1-3.2', 'GT1-5.1', 'GT1-6.1', 'GT1-12', 'IN1-16.1', 'IN1-16.2', 'IN1-19.1', 'IN1-36', 'IN1-49.1', 'PV1-19.1'],
  ];
  const values = paths.flatMap((p) => getAll(m, p)).map((v) => v.trim());
  const birth = get(m, 'PID-7')?.slice(0, 8);
  return [...values, ...(birth && birth.length === 8 ? [birth] : [])].filter((v) => v.length >= 4 && !/^\d{1,4}$/.test(v));
}

describe('HL7 v2 de-identification', () => {
  it('leaves none of the identifying values in any sample, and every result serializes and parses again', () => {
    let checked = 0;
    const leaks: string[] = [];
    for (const { name, text } of hl7Samples()) {
      const input = parseMessage(text);
      const out = deidentifyHl7v2(input, { key, now });
      const again = parseMessage(serialize(out));
      expect(again.segments.map((s) => s.id)).toEqual(input.segments.map((s) => s.id));
      const hay = serialize(out);
      for (const v of phi(input)) {
        checked++;
        // as a whole value: "MARY" inside "Primary" or "I-123" inside "MI-12345" is not that value
        if (new RegExp(`(?<![A-Za-z0-9])${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'i').test(hay)) leaks.push(`${name}: ${v}`);
      }
    }
    console.log(`HL7 v2 samples: ${hl7Samples().length} messages de-identified, ${checked} values checked, ${leaks.length} leaks`);
    expect(checked).toBeGreaterThan(300);
    expect(leaks).toEqual([]);
  });

  it('pseudonymizes PID-3, empties names, phones and street, cuts the ZIP, keeps the year of birth', () => {
    const input = parseMessage(hl7Sample('ADT-A01-01.hl7'));
    const out = parseMessage(serialize(deidentifyHl7v2(input, { key, now })));
    expect(get(out, 'PID-3.1')).toBe(pseudonym(key, 'PATID1234'));
    expect(get(out, 'PID-3.5')).toBe('MR');
    expect([get(out, 'PID-5'), get(out, 'PID-6'), get(out, 'PID-13'), get(out, 'PID-11.1'), get(out, 'PID-11.3')]).toEqual(['', '', '', '', '']);
    expect([get(out, 'PID-11.4'), get(out, 'PID-11.5')]).toEqual(['MI', '999']);
    expect(get(out, 'PID-7')).toBe('1988');
    expect(get(out, 'NK1-2')).toBe('');
    expect(get(out, 'PV1-7.1')).toMatch(/^[0-9a-f]{8}-/);
  });

  it('scrubs free-text OBX values and NTE comments with what the message knows', () => {
    const input = parseMessage(hl7Sample('ADT-A01-01.hl7'));
    input.segments.push({ id: 'NTE', fields: ['NTE', '1', '', 'Called ADAM EVERYMAN at 555-123-4567 on 2024-01-05 about MRN PATID1234'] });
    const out = deidentifyHl7v2(input, { key, now });
    const note = decode(out.segments.at(-1)!.fields[3]!, out.delimiters);
    expect(note).toMatch(/^Called \[NAME\] \[NAME\] at \[PHONE\] on \d{4}-\d{2}-\d{2} about MRN \[ID\]$/);
    expect(note).not.toContain('2024-01-05');
  });

  it('links with FHIR: the Patient converted from the message gets the same pseudonym and the same date shift', () => {
    const input = parseMessage(hl7Sample('ADT-A01-01.hl7'));
    const options = { key, now, birthDate: { keepYear: false } };
    const hl7 = deidentifyHl7v2(input, options);
    const bundle = deidentifyFhir(convertMessage(input).bundle, options).value;
    const patient = bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === 'Patient') as { identifier: { value: string }[]; birthDate: string };
    expect(patient.identifier.map((i) => i.value)).toContain(get(hl7, 'PID-3.1'));
    const shifted = get(hl7, 'PID-7')!;
    expect(shifted).not.toBe(get(input, 'PID-7'));
    expect(patient.birthDate).toBe(`${shifted.slice(0, 4)}-${shifted.slice(4, 6)}-${shifted.slice(6, 8)}`);
    // the encounter's admission moves as PV1-44 does
    const encounter = bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === 'Encounter') as { period?: { start?: string } };
    const admitted = get(hl7, 'PV1-44')!;
    expect(encounter.period?.start?.slice(0, 10)).toBe(`${admitted.slice(0, 4)}-${admitted.slice(4, 6)}-${admitted.slice(6, 8)}`);
  });

  it('gives the member number the same pseudonym in both formats: IN1-49 and the converted Coverage.subscriberId', () => {
    const input = parseMessage(hl7Sample('ADT-A01-01.hl7'));
    expect(get(input, 'IN1-49.1')).toBe('HMO-12345');
    const hl7 = deidentifyHl7v2(input, { key, now });
    const bundle = deidentifyFhir(convertMessage(input).bundle, { key, now }).value;
    const coverage = bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === 'Coverage') as { subscriberId?: string };
    expect(coverage.subscriberId).toBe(pseudonym(key, 'HMO-12345'));
    expect(get(hl7, 'IN1-49.1')).toBe(coverage.subscriberId);
    // ST fields of a person's segment are the person's: the policy number (IN1-36) is pseudonymized too
    expect(get(hl7, 'IN1-36')).toBe(pseudonym(key, get(input, 'IN1-36')!));
    // an organization (XON) loses its name, keeps its type: the insurer of IN1-4, the performing lab of OBX-23
    expect(get(hl7, 'IN1-4.1')).toBe('');
    expect(get(hl7, 'OBX-23.1')).toBe('');
  });

  it('gives messages the converter still makes valid FHIR of (a feed that de-identifies before converting)', () => {
    const messages = hl7Samples()
      .map((s) => parseMessage(s.text))
      .filter((m) => (SUPPORTED_TYPES as readonly string[]).includes(m.message_type.toUpperCase()));
    expect(messages.length).toBeGreaterThan(60);
    for (const m of messages) {
      const bundle = convertMessage(parseMessage(serialize(deidentifyHl7v2(m, { key, now })))).bundle;
      expect(validateFhir(bundle).map(formatIssue), `${m.message_type}^${m.trigger_event} ${m.control_id}`).toEqual([]);
    }
  }, 60_000);

  it('gives other pseudonyms and shifts under another organization key', () => {
    const input = parseMessage(hl7Sample('ADT-A01-01.hl7'));
    const a = deidentifyHl7v2(input, { key, now, birthDate: { keepYear: false } });
    const b = deidentifyHl7v2(input, { key: new Uint8Array(32).fill(9), now, birthDate: { keepYear: false } });
    expect(get(a, 'PID-3.1')).not.toBe(get(b, 'PID-3.1'));
    expect(get(a, 'PV1-44')).not.toBe(get(b, 'PV1-44'));
  });
});
