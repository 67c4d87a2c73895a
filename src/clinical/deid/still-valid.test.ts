import { describe, expect, it } from 'vitest';
import { validateFhir } from '@/clinical/fhir/validate';
import { convertedSamples } from '../../../tests/support/clinical/fhir';
import { syntheaRecords } from '../../../tests/support/clinical/deid';
import { deidentifyFhir, type FhirDeidOptions } from './fhir';
import { stillValid } from './still-valid';

const key = new Uint8Array(32).fill(9);
const errors = (v: unknown) => validateFhir(v, { bindings: false }).filter((i) => i.severity === 'error');

// the option sets a feed may use: the node's defaults, and the others that change values differently
const OPTIONS: Omit<FhirDeidOptions, 'key'>[] = [
  {},
  { birthDate: { keepYear: false }, patientIdentity: 'id', maxShiftDays: 30 },
  { birthDate: { over89: 'remove' } },
];

describe('the de-identified copy of a valid value, checked only where its shape changed', () => {
  it('is said valid only when the whole validation finds it valid: every sample message converted, every Synthea record', () => {
    const inputs: [string, unknown][] = [...convertedSamples('transaction'), ...syntheaRecords().map((r, i): [string, unknown] => [`synthea ${i}`, r])];
    let copies = 0;
    let valid = 0;
    let said = 0;
    const wrong: string[] = [];
    for (const [name, input] of inputs) {
      if (errors(input).length) continue; // what fhir-validate would not have passed
      for (const [o, options] of OPTIONS.entries()) {
        const out = deidentifyFhir(input, { key, ...options }).value;
        copies++;
        const full = errors(out);
        if (full.length === 0) valid++;
        if (!stillValid(input, out)) continue;
        said++;
        if (full.length) wrong.push(`${name} (options ${o}): ${full[0]!.path} ${full[0]!.message}`);
      }
    }
    console.log(`${copies} de-identified copies: ${valid} valid by the whole validation, ${said} said valid by the check where they changed`);
    expect(wrong).toEqual([]);
    expect(copies).toBeGreaterThan(700);
    expect(said).toBe(valid); // and no valid one is checked whole for want of telling
  }, 300_000);

  it('is not said valid when a removal broke a rule, in an entry or in the Bundle itself', () => {
    const observation = { resourceType: 'Observation', id: 'o1', status: 'final', code: { text: 'Pulse' }, subject: { reference: 'urn:uuid:p1' } };
    const entry = (resource: object, id: string) => ({ fullUrl: `urn:uuid:${id}`, resource, request: { method: 'PUT', url: `Observation/${id}` } });
    const before = { resourceType: 'Bundle', type: 'transaction', entry: [entry(observation, 'o1')] };
    expect(errors(before)).toEqual([]);
    // a copy whose Observation lost its status (1..1), and one whose entry lost its request (a transaction's needs one)
    const noStatus = { ...before, entry: [entry({ ...observation, status: undefined }, 'o1')] };
    const noRequest = { ...before, entry: [{ ...entry(observation, 'o1'), request: undefined }] };
    for (const after of [noStatus, noRequest]) {
      expect(errors(after)).not.toEqual([]);
      expect(stillValid(before, after)).toBe(false);
    }
    // values replaced, shape kept: nothing to check, said valid
    expect(stillValid(before, { ...before, entry: [entry({ ...observation, id: 'x9' }, 'x9')] })).toBe(true);
  });
});
