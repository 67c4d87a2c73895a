import { describe, expect, it } from 'vitest';
import { deidentifyFhir, deidentifyFhirInterpreted } from './fhir';
import { deidentifyByPreset } from './fhir-preset';

/**
 * The patient whose date shift a resource without a subject gets is the first Patient its references name level by
 * level (descendants() order). The compiled preset answers from the references its depth-first walk found when they
 * name one Patient, and searches level by level only when they name two: both cases, against the interpreted rules.
 */
const key = new Uint8Array(32).fill(7);
const now = new Date('2026-01-01T00:00:00Z');
type Json = Record<string, unknown>;

const INPUTS: [string, Json][] = [
  [
    'two patients, the deeper first depth-first, the shallower first level by level',
    {
      resourceType: 'Observation',
      id: 'o9',
      extension: [{ url: 'http://x/y', valueReference: { reference: 'Patient/deep' } }],
      performer: [{ reference: 'Patient/shallow' }],
      effectiveDateTime: '2020-02-03',
    },
  ],
  [
    'one patient named twice',
    { resourceType: 'Observation', id: 'o10', performer: [{ reference: 'Patient/one' }, { reference: 'urn:uuid:one' }], issued: '2020-02-03T00:00:00Z' },
  ],
];

describe('the patient of a resource without a subject', () => {
  it.each(INPUTS)('is the one the interpreted rules find: %s', (_, input) => {
    expect(deidentifyByPreset(input, { key, now }, key)).toBeDefined();
    expect(JSON.stringify(deidentifyFhir(input, { key, now }))).toBe(JSON.stringify(deidentifyFhirInterpreted(input, { key, now })));
  });

  it('moves the dates by the shallower patient when two are named', () => {
    const [, input] = INPUTS[0]!;
    const alone = (patient: string) =>
      deidentifyFhir({ resourceType: 'Observation', id: 'o9', subject: { reference: `Patient/${patient}` }, effectiveDateTime: '2020-02-03' }, { key, now })
        .value.effectiveDateTime;
    const got = (deidentifyFhir(input, { key, now }).value as Json).effectiveDateTime;
    expect(alone('shallow')).not.toBe(alone('deep'));
    expect(got).toBe(alone('shallow'));
  });
});
