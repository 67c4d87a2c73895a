import { beforeEach, describe, expect, it } from 'vitest';
import { parseMessage, serialize } from '@/clinical/hl7v2';
import { hl7Samples } from '../../../tests/support/clinical/hl7v2';
import { convertMessage, SUPPORTED_TYPES } from '@/clinical/hl7v2-fhir';
import { deidentifyFhir } from './fhir';
import { deidentifyHl7v2 } from './hl7v2';
import { datesKept, fhirPhi, leaksIn, searchable, syntheaRecords } from '../../../tests/support/clinical/deid';
import { hl7DatesKept, hl7Phi } from '../../../tests/support/clinical/hl7-phi';

/**
 * The de-identification scan: for every sample, every value that identifies a person is collected from the input
 * generically (by data type, and every string of the resources and segments that describe a person — see
 * test-support), and none may be found anywhere in the de-identified output (JSON or message text, base64
 * attachments decoded). Not a list of fields checked one by one: a field the de-identifier forgets leaks here.
 */
const key = new Uint8Array(32).fill(7);
const now = new Date('2026-01-01T00:00:00Z');

let checked = 0;

function report(label: string, perSample: [string, string[]][]): string[] {
  const leaked = perSample.filter(([, l]) => l.length > 0);
  const total = perSample.reduce((n, [, l]) => n + l.length, 0);
  const lines = leaked.map(([s, l]) => `\n  ${s}: ${l.length} — ${l.join(' | ')}`).join('');
  console.log(`${label}: ${perSample.length} samples, ${checked} identifying values checked (and every date), ${total} leaked values${lines}`);
  return leaked.flatMap(([s, l]) => l.map((v) => `${s}: ${v}`));
}

describe('de-identification scan: no original identifying value survives', () => {
  const samples = hl7Samples().map((s) => ({ name: s.name, message: parseMessage(s.text) }));

  beforeEach(() => {
    checked = 0;
  });

  it('hl7v2-deidentify, on every sample message', () => {
    const perSample = samples.map(({ name, message }): [string, string[]] => {
      const values = hl7Phi(message);
      checked += values.size;
      const out = deidentifyHl7v2(message, { key, now });
      return [name, [...leaksIn(serialize(out), values), ...hl7DatesKept(message, out)]];
    });
    expect(perSample.length).toBeGreaterThan(60);
    expect(report('hl7v2-deidentify', perSample)).toEqual([]);
  });

  it('hl7v2-parse → hl7v2-to-fhir → fhir-deidentify, on every sample message the converter takes', () => {
    const supported = samples.filter(({ message }) => (SUPPORTED_TYPES as readonly string[]).includes(message.message_type.toUpperCase()));
    const perSample = supported.map(({ name, message }): [string, string[]] => {
      const bundle = convertMessage(message).bundle;
      // what the message said and what the bundle says: neither may be left
      const values = new Map([...hl7Phi(message), ...fhirPhi(bundle)]);
      checked += values.size;
      const out = deidentifyFhir(bundle, { key, now }).value;
      return [name, [...leaksIn(searchable(out), values), ...datesKept(bundle, out)]];
    });
    expect(perSample.length).toBeGreaterThan(60);
    expect(report('hl7v2-to-fhir → fhir-deidentify', perSample)).toEqual([]);
  });

  it('fhir-deidentify, on every Synthea record', () => {
    const perSample = syntheaRecords().map((record, i): [string, string[]] => {
      const out = deidentifyFhir(record, { key, now }).value;
      const values = fhirPhi(record);
      checked += values.size;
      return [`synthea #${i} ${record.resourceType as string}`, [...leaksIn(searchable(out), values), ...datesKept(record, out)]];
    });
    expect(report('synthea-10 → fhir-deidentify', perSample)).toEqual([]);
  }, 180_000);
});
