import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseMessage } from '@/clinical/hl7v2';
import { hl7Sample } from '../../../tests/support/clinical/hl7v2';
import { compareBundles, factsOf, misses, NOT_MAPPED_BY_REFERENCE } from './compare';
import { convertMessage } from './convert';
import { compareSamples, DATA } from './samples';

/**
 * The overall figure reached (97.7%, 2702 of 2766 facts, see scripts/compare-hl7-fhir.ts), less a small margin: a
 * regression fails. The held-out set (the FHIR-Converter's 68 other test messages, not committed) gives 95.1% with
 * the same comparison (docs/decisions.md).
 */
const FLOOR = 0.976;

describe('comparison with the Microsoft FHIR-Converter output', () => {
  it(`agrees on at least ${(FLOOR * 100).toFixed(1)}% of the compared facts over every sample that has an expected bundle`, () => {
    const report = compareSamples();
    // the misses, for a reader of the test's output: what the reference has that we lack, and what we add
    const lines = report.messages
      .filter((m) => m.comparison.agree < m.comparison.total)
      .flatMap((m) => [`${m.name} ${m.comparison.agree}/${m.comparison.total}`, ...misses(m.comparison).map((l) => `  ${l}`)]);
    const links = Object.entries(report.notComparedLinks)
      .map(([l, n]) => `${l} ${n}`)
      .join(', ');
    console.log(
      `HL7 v2 → FHIR agreement with the reference: ${report.agree}/${report.total} = ${(report.ratio * 100).toFixed(1)}%` +
        ` over ${report.messages.length} messages` +
        ` (not compared, links the reference makes in no message: ${links || 'none'}); misses:\n${lines.join('\n')}`,
    );
    expect(report.messages.length).toBe(64);
    expect(report.ratio).toBeGreaterThanOrEqual(FLOOR);
    // birth date, gender and encounter class agree on every message whose expected bundle has them
    for (const m of report.messages) {
      for (const f of m.comparison.facts.filter((x) => ['Patient.birthDate', 'Patient.gender', 'Encounter.class'].includes(x.fact) && x.expected.length)) {
        expect(f.actual, `${m.name} ${f.fact}`).toEqual(f.expected);
      }
    }
  });

  it('counts a bundle against itself as full agreement, and notices a changed gender and a lost observation', () => {
    const bundle = convertMessage(parseMessage(hl7Sample('LAB-ORU-1.hl7'))).bundle;
    const same = compareBundles(bundle, bundle);
    expect(same.ratio).toBe(1);
    expect(same.facts.map((f) => f.fact)).toEqual(expect.arrayContaining(['count Patient', 'Patient.gender', 'Observation.value', 'references']));

    const changed = structuredClone(bundle) as Bundle;
    (changed.entry!.find((e) => e.resource!.resourceType === 'Patient')!.resource as Patient).gender = 'female';
    const observationAt = changed.entry!.findIndex((e) => e.resource!.resourceType === 'Observation');
    changed.entry!.splice(observationAt, 1);
    const c = compareBundles(bundle, changed);
    const off = Object.fromEntries(c.facts.filter((f) => f.agree < f.total).map((f) => [f.fact, [f.agree, f.total]]));
    expect(off['Patient.gender']).toEqual([0, 2]);
    expect(off['count Observation']).toEqual([0, 1]);
    expect(off['Observation.code']).toEqual([9, 10]);
    expect(c.ratio).toBeLessThan(1);
  });

  it('reads an identifier the reference writes with its EI sub-components undivided (`9adf…&L`) as the identifier before them', () => {
    const bundle = convertMessage(parseMessage(hl7Sample('OUL-R22-01.hl7'))).bundle;
    const reference = structuredClone(bundle) as Bundle;
    const order = reference.entry!.find((e) => e.resource!.resourceType === 'ServiceRequest')!.resource as ServiceRequest;
    const group = order.identifier!.find((i) => i.type?.coding?.[0]?.code === 'PGN')!;
    group.value = `${group.value}&L`;
    expect(compareBundles(reference, bundle).facts.find((f) => f.fact === 'ServiceRequest.identifier')).toMatchObject({ agree: 3, total: 3 });
    group.value = `other&L`;
    expect(compareBundles(reference, bundle).facts.find((f) => f.fact === 'ServiceRequest.identifier')).toMatchObject({ agree: 2, total: 4 });
  });

  it('leaves out only the links the reference makes in no message, and still counts a changed link of the same resource', () => {
    // the claim behind NOT_MAPPED_BY_REFERENCE, over the expected bundles we have: none has such a link
    const dir = path.join(DATA, 'expected-fhir');
    for (const f of readdirSync(dir)) {
      const expected = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Bundle;
      expect(factsOf(expected).get('not compared: references'), f).toEqual([]);
    }
    const bundle = convertMessage(parseMessage(hl7Sample('ADT-A01-01.hl7'))).bundle;
    expect(factsOf(bundle).get('not compared: references')).toContain('Procedure.encounter→Encounter');
    const without = structuredClone(bundle) as Bundle;
    const procedure = without.entry!.find((e) => e.resource!.resourceType === 'Procedure')!.resource as Procedure;
    delete procedure.encounter;
    expect(compareBundles(without, bundle).ratio).toBe(1);
    expect(compareBundles(without, bundle).notComparedLinks).toEqual({ 'Procedure.encounter→Encounter': 1 });
    procedure.subject = { reference: 'Patient/someone-else' };
    expect(compareBundles(without, bundle).ratio).toBeLessThan(1);
  });
});
