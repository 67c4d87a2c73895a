import type { Bundle, Condition, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { groupByType, mergeBundles, resolveReference, splitBundle } from './bundle';
import { expectedBundle, expectedBundleNames, synthea } from '../../../tests/support/clinical/fhir';
import { validateFhir } from './validate';

const refs = (r: unknown): string[] =>
  JSON.stringify(r)
    .match(/"reference":"[^"]+"/g)
    ?.map((m) => m.slice(13, -1)) ?? [];

describe('splitBundle', () => {
  it('gives every entry of every expected bundle, in order, and filters by type', () => {
    let total = 0;
    for (const name of expectedBundleNames()) {
      const b = expectedBundle(name);
      const all = splitBundle(b);
      expect(all.map((r) => r.id)).toEqual(b.entry!.map((e) => e.resource!.id));
      total += all.length;
    }
    expect(total).toBeGreaterThan(3000);
    const adt = splitBundle(expectedBundle('ADT-A01-01'), { types: ['Patient', 'Condition'] });
    expect(adt.map((r) => r.resourceType)).toEqual(['Patient', 'Condition', 'Condition', 'Condition']);
    expect(groupByType(adt).Condition).toHaveLength(3);
  });

  it('rewrites urn:uuid references to entries as Type/id when asked, leaving the original untouched', () => {
    const conditions = synthea('Condition').slice(0, 2) as Condition[];
    const patient = synthea('Patient').find((p) => conditions[0]!.subject!.reference === `Patient/${p.id}`)!;
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [patient, ...conditions].map((r) => ({
        fullUrl: `urn:uuid:${r.id}`,
        resource: { ...r, ...('subject' in r ? { subject: { reference: `urn:uuid:${patient.id}` } } : {}) } as Resource,
      })),
    };
    const split = splitBundle(bundle, { types: ['Condition'], relativeReferences: true });
    expect(split.map((c) => refs(c)[0])).toEqual([`Patient/${patient.id}`, `Patient/${patient.id}`]);
    expect(refs(bundle.entry![1]!.resource)[0]).toBe(`urn:uuid:${patient.id}`);
    expect(resolveReference(bundle, `urn:uuid:${patient.id}`)).toBe(bundle.entry![0]!.resource);
    expect(resolveReference(bundle, `https://fhir.example.org/r4/Patient/${patient.id}`)).toBe(bundle.entry![0]!.resource);
    expect(resolveReference(bundle, 'Patient/nobody')).toBeUndefined();
  });
});

describe('mergeBundles', () => {
  it('merges the A01 and A02 bundles of the same patient into one, once per type/id', () => {
    const a01 = expectedBundle('ADT-A01-01');
    const a02 = expectedBundle('ADT-A02-01');
    const keys = new Set([...a01.entry!, ...a02.entry!].map((e) => `${e.resource!.resourceType}/${e.resource!.id}`));
    const { bundle, duplicates } = mergeBundles([a01, a02]);
    expect(bundle.type).toBe('collection');
    expect(bundle.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`)).toEqual([...keys]);
    expect(duplicates).toBe(a01.entry!.length + a02.entry!.length - keys.size);
    expect(bundle.entry!.filter((e) => e.resource!.resourceType === 'Patient')).toHaveLength(1);
    expect(validateFhir(bundle)).toEqual([]);
  });

  it('builds a valid transaction of Synthea resources: PUT for ids, references resolved inside or listed', () => {
    const patients = synthea('Patient').slice(0, 2);
    const conditions = (synthea('Condition') as Condition[]).filter((c) => patients.some((p) => c.subject!.reference === `Patient/${p.id}`));
    const { bundle, duplicates, unresolved } = mergeBundles([...patients, ...conditions, patients[0]], { type: 'transaction' });
    expect(duplicates).toBe(1);
    expect(bundle.entry).toHaveLength(2 + conditions.length);
    expect(bundle.entry![0]!.request).toEqual({ method: 'PUT', url: `Patient/${patients[0]!.id}` });
    expect(bundle.entry![0]!.fullUrl).toBe(`urn:uuid:${patients[0]!.id}`);
    expect(validateFhir(bundle)).toEqual([]);
    // subjects are in the bundle; encounters are not
    expect(unresolved.some((r) => r.startsWith('Patient/'))).toBe(false);
    expect(unresolved.length).toBeGreaterThan(0);
    expect(unresolved.every((r) => r.startsWith('Encounter/'))).toBe(true);
  });

  it("redirects references to a dropped copy's fullUrl to the kept entry, and POSTs resources without id", () => {
    const p = synthea('Patient')[0]!;
    const one: Bundle = { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:11111111-1111-4111-8111-111111111111', resource: p }] };
    const obs = {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'note' },
      subject: { reference: 'urn:uuid:22222222-2222-4222-8222-222222222222' },
    };
    const two: Bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ fullUrl: 'urn:uuid:22222222-2222-4222-8222-222222222222', resource: p }, { resource: obs as Resource }],
    };
    const { bundle, unresolved } = mergeBundles([one, two], { type: 'transaction' });
    expect(bundle.entry).toHaveLength(2);
    expect(refs(bundle.entry![1]!.resource)).toEqual(['urn:uuid:11111111-1111-4111-8111-111111111111']);
    expect(bundle.entry![1]!.request).toEqual({ method: 'POST', url: 'Observation' });
    expect(unresolved).toEqual([]);
    expect(() => mergeBundles(['MSH|'])).toThrow('Cannot merge string');
  });
});
