import { describe, expect, it } from 'vitest';
import sampleCodes from './sample-codes.generated.json';
import { fillDisplays, lookupDisplay } from './terminology';
import { expectedBundle, expectedBundleNames, synthea, syntheaTypes } from '../../../tests/support/clinical/fhir';

const CODING_KEYS = ['id', 'extension', 'system', 'version', 'code', 'display', 'userSelected'];
const isCoding = (o: Record<string, unknown>) =>
  typeof o.code === 'string' && typeof o.system === 'string' && Object.keys(o).every((k) => CODING_KEYS.includes(k));

/** Removes the display of every Coding that has one; returns path → removed display. */
function stripDisplays(x: unknown, removed = new Map<string, string>(), path = ''): Map<string, string> {
  if (Array.isArray(x)) x.forEach((v, i) => stripDisplays(v, removed, `${path}[${i}]`));
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (isCoding(o) && typeof o.display === 'string') {
      removed.set(path, o.display);
      delete o.display;
    } else for (const [k, v] of Object.entries(o)) stripDisplays(v, removed, `${path}.${k}`);
  }
  return removed;
}

describe('lookupDisplay', () => {
  it('reads HL7 v2 tables by URI or table id, FHIR and v3 code systems, and the sample-derived codes', () => {
    expect(lookupDisplay('http://terminology.hl7.org/CodeSystem/v2-0001', 'F')).toEqual({ display: 'Female', source: 'hl7v2-table' });
    expect(lookupDisplay('HL70004', 'I')).toEqual({ display: 'Inpatient', source: 'hl7v2-table' });
    expect(lookupDisplay('http://terminology.hl7.org/CodeSystem/condition-clinical', 'resolved')).toEqual({ display: 'Resolved', source: 'fhir-definitions' });
    expect(lookupDisplay('http://terminology.hl7.org/CodeSystem/v3-ActCode', 'AMB')?.display).toBe('ambulatory');
    expect(lookupDisplay('http://hl7.org/fhir/sid/cvx', '140')).toEqual({ display: 'Influenza, seasonal, injectable, preservative free', source: 'samples' });
    expect(lookupDisplay('urn:oid:2.16.840.1.113883.6.96', '19169002')?.display).toBe('Miscarriage in first trimester');
  });

  it('reports unknown codes as unknown (no guess): a SNOMED code the samples never carry, a made-up system, a v2 code newer than the tables', () => {
    expect(lookupDisplay('http://snomed.info/sct', '22298006')).toBeUndefined();
    expect(lookupDisplay('http://example.org/codes', 'A')).toBeUndefined();
    expect(lookupDisplay('http://terminology.hl7.org/CodeSystem/v2-0203', 'PGN')).toBeUndefined();
  });

  it('lists only displays the samples carry beside the same code (the generated table invents nothing)', () => {
    const carried = new Set<string>();
    const collect = (x: unknown): void => {
      if (Array.isArray(x)) return x.forEach(collect);
      if (!x || typeof x !== 'object') return;
      const o = x as Record<string, unknown>;
      if (typeof o.system === 'string' && typeof o.code === 'string' && typeof o.display === 'string') carried.add(`${o.system}|${o.code}|${o.display}`);
      Object.values(o).forEach(collect);
    };
    for (const t of syntheaTypes()) synthea(t).forEach(collect);
    for (const n of expectedBundleNames()) collect(expectedBundle(n));
    const table = Object.entries(sampleCodes.systems).flatMap(([system, codes]) =>
      Object.entries(codes).map(([code, display]) => `${system}|${code}|${display}`),
    );
    expect(table.length).toBeGreaterThan(300);
    expect(table.filter((k) => !carried.has(k))).toEqual([]);
  });
});

describe('fillDisplays', () => {
  it('restores the displays of every Synthea resource stripped of them: none unknown, 99% the same words', () => {
    let removed = 0;
    let same = 0;
    for (const t of syntheaTypes()) {
      for (const r of synthea(t)) {
        const stripped = structuredClone(r);
        const was = stripDisplays(stripped);
        const { value, unknown } = fillDisplays(stripped);
        expect(unknown, `${t}/${r.id}`).toEqual([]);
        const now = stripDisplays(structuredClone(value));
        removed += was.size;
        for (const [path, display] of was) {
          expect(now.get(path), `${t}/${r.id} ${path}`).toBeTypeOf('string');
          if (now.get(path) === display) same++;
        }
      }
    }
    expect(removed).toBe(15412);
    expect(same / removed).toBeGreaterThan(0.99);
  }, 60_000);

  it('fills a missing display, keeps an existing one, leaves Quantities alone, and names the path of unknown codes', () => {
    const imm = structuredClone(synthea('Immunization')[1]!) as { vaccineCode: { coding: { display?: string }[] } };
    delete imm.vaccineCode.coding[0]!.display;
    const obs = {
      resourceType: 'Observation',
      status: 'final',
      code: {
        coding: [
          { system: 'http://loinc.org', code: '8867-4' },
          { system: 'http://snomed.info/sct', code: '22298006' },
        ],
      },
      valueQuantity: { value: 72, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'N', display: 'Normal (kept)' }] }],
    };
    const r = fillDisplays({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: imm }, { resource: obs }] });
    const [e0, e1] = (r.value as unknown as { entry: { resource: typeof obs & typeof imm }[] }).entry;
    expect(e0!.resource.vaccineCode.coding[0]!.display).toBe('Influenza, seasonal, injectable, preservative free');
    expect(e1!.resource.code.coding[0]).toEqual({ system: 'http://loinc.org', code: '8867-4', display: 'heartrate' });
    expect(e1!.resource.valueQuantity).toEqual(obs.valueQuantity);
    expect(e1!.resource.interpretation[0]!.coding[0]!.display).toBe('Normal (kept)');
    expect([r.filled, r.kept]).toEqual([2, 1]);
    expect(r.unknown).toEqual([
      { path: 'Bundle.entry[1].resource.code.coding[1]', system: 'http://snomed.info/sct', code: '22298006', reason: 'unknown-code' },
    ]);
    expect(fillDisplays({ system: 'urn:x-local', code: 'Z' }).unknown[0]!.reason).toBe('unknown-system');
    expect(fillDisplays(obs).value).not.toBe(obs);
  });

  it('replaces displays that differ with overwrite', () => {
    const r = fillDisplays({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0001', code: 'F', display: 'F' }] }, { overwrite: true });
    expect(r.value.coding[0]!.display).toBe('Female');
    expect(r.filled).toBe(1);
  });
});
