import { describe, expect, it } from 'vitest';
import { deidentifyFhir } from './fhir';
import { phiValues, readable, syntheaRecords } from '../../../tests/support/clinical/deid';

const key = new Uint8Array(32).fill(7);
const now = new Date('2026-01-01T00:00:00Z');

describe('Safe Harbor on the Synthea sample', () => {
  it('leaves no name, identifier, address line, phone, email or exact birth date of the input anywhere in the output', () => {
    let resources = 0;
    let checked = 0;
    const leaks: string[] = [];
    for (const record of syntheaRecords()) {
      const values = phiValues(record);
      const out = deidentifyFhir(record, { key, now });
      resources += out.resources;
      const text = readable(out.value);
      for (const [value, kind] of values) {
        checked++;
        if (text.includes(value.toLowerCase())) leaks.push(`${kind}: ${value}`);
      }
    }
    console.log(`synthea-10: ${resources} resources de-identified, ${checked} values checked, ${leaks.length} leaks`);
    expect(resources).toBe(7160);
    expect(checked).toBeGreaterThan(5000);
    expect(leaks).toEqual([]);
  }, 120_000);
});
