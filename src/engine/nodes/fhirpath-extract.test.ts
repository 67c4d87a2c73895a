import { describe, expect, it } from 'vitest';
import { expectedBundle, synthea } from '../../../tests/support/clinical/fhir';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { fhirpathExtractNode as fhirpathExtract } from './fhirpath-extract.execute';

describe('fhirpath-extract', () => {
  it('works with its default config: resource type and id', async () => {
    const p = synthea('Patient')[0]!;
    const r = await runNode(fhirpathExtract, {}, { resource: p });
    expect(r.outputs).toEqual({ values: { resourceType: 'Patient', id: '129c6ac7-8d06-89de-ad63-0204a93e76c3' } });
  });

  it('extracts the named values of its example config from every Synthea Patient', async () => {
    const patients = synthea('Patient');
    const values = await Promise.all(
      patients.map(async (p) => (await runNode(fhirpathExtract, fhirpathExtract.example, { resource: p })).outputs.values as Record<string, unknown>),
    );
    expect(values[0]).toEqual({ family: 'Medhurst46', birthDate: '1927-05-21', mrn: '129c6ac7-8d06-89de-ad63-0204a93e76c3' });
    expect(
      values.every((v, i) => v.mrn === patients[i]!.id && typeof v.family === 'string' && v.birthDate === (patients[i] as { birthDate: string }).birthDate),
    ).toBe(true);
  });

  it('runs on each entry of a bundle, all values', async () => {
    const ctx = testContext();
    const r = await runNode(
      fhirpathExtract,
      { expressions: { type: 'resourceType', codes: 'code.coding.code' }, mode: 'all', each_entry: true },
      { resource: expectedBundle('ADT-A01-01') },
      ctx,
    );
    const values = r.outputs.values as { type: string[]; codes: string[] }[];
    expect(values).toHaveLength(119);
    expect(values.map((v) => v.type[0])).toEqual(expectedBundle('ADT-A01-01').entry!.map((e) => e.resource!.resourceType));
    expect(values.filter((v) => v.type[0] === 'Condition')).toHaveLength(3);
    expect(values.filter((v) => v.type[0] === 'Condition').flatMap((v) => v.codes).length).toBeGreaterThan(0);
    expect(ctx.logs[0]!.message).toBe('2 expression(s) on 119 entries');
  });

  it('refuses an expression that does not parse when the config is saved', () => {
    const refused = fhirpathExtract.config.safeParse({ expressions: { name: 'name.where(' } });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.path).toEqual(['expressions', 'name']);
    expect(refused.error!.issues[0]!.message).toMatch(/^FHIRPath "name.where\(" does not parse/);
    expect(fhirpathExtract.config.safeParse({ expressions: {} }).success).toBe(false);
    expect(fhirpathExtract.config.safeParse({ expressions: { age: 'birthDate.ageInYears()' } }).error?.issues[0]?.message).toBe(
      'FHIRPath "birthDate.ageInYears()" cannot run: there is no function ageInYears()',
    );
  });

  it('fails with FHIR_INVALID on a value that is not a resource, FHIRPATH_FAILED when an expression fails', async () => {
    expect((await failure(runNode(fhirpathExtract, {}, { resource: [1] }))).code).toBe('FHIR_INVALID');
    const e = await failure(runNode(fhirpathExtract, { expressions: { n: 'name.given.single()' } }, { resource: synthea('Patient')[0] }));
    expect(e).toMatchObject({ code: 'FHIRPATH_FAILED', message: 'FHIRPath "n" (name.given.single()) failed: Expected single' });
  });
});
