import type { Condition } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { expectedBundle, synthea } from '../../../tests/support/clinical/fhir';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { terminologyLookupNode as terminologyLookup } from './terminology-lookup.execute';

describe('terminology-lookup', () => {
  it('works with its default config: the documented {system, code} example', async () => {
    const r = await runNode(terminologyLookup, {}, { value: { system: 'http://terminology.hl7.org/CodeSystem/v2-0004', code: 'I' } });
    expect(r.outputs).toEqual({ value: { system: 'http://terminology.hl7.org/CodeSystem/v2-0004', code: 'I', display: 'Inpatient' }, display: 'Inpatient' });
  });

  it('fills the display of a Synthea Immunization whose CVX display was removed, and the clinical status of a Condition', async () => {
    const imm = structuredClone(synthea('Immunization')[1]!) as { vaccineCode: { coding: { display?: string }[] } };
    delete imm.vaccineCode.coding[0]!.display;
    const ctx = testContext();
    const r = await runNode(terminologyLookup, terminologyLookup.example, { value: imm }, ctx);
    expect((r.outputs.value as typeof imm).vaccineCode.coding[0]!.display).toBe('Influenza, seasonal, injectable, preservative free');
    expect(Object.keys(r.outputs)).toEqual(['value']);
    expect(imm.vaccineCode.coding[0]!.display).toBeUndefined();
    const resolved = synthea<Condition>('Condition').find((c) => c.clinicalStatus?.coding?.[0]?.code === 'resolved')!;
    const cond = (await runNode(terminologyLookup, {}, { value: resolved })).outputs.value as { clinicalStatus: { coding: { display: string }[] } };
    expect(cond.clinicalStatus.coding[0]!.display).toBe('Resolved');
    expect(ctx.logs[0]!.message).toBe('1 display(s) filled in, 0 already there, 0 unknown code(s)');
  });

  it('reports the codes of an expected bundle it cannot name, with their paths, and fails on them when asked', async () => {
    const bundle = expectedBundle('LAB-ORU-1');
    const r = await runNode(terminologyLookup, {}, { value: bundle });
    const unknown = r.outputs.unknown as { path: string; system: string; code: string; reason: string }[];
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.every((u) => u.path.startsWith('Bundle.entry['))).toBe(true);
    expect(unknown.filter((u) => u.reason === 'unknown-code').map((u) => `${u.system}|${u.code}`)).toContain(
      'http://terminology.hl7.org/CodeSystem/v2-0203|PGN',
    );
    expect(unknown.find((u) => u.code === 'PGN')!.path).toBe('Bundle.entry[16].resource.identifier[0].type.coding[0]');
    const e = await failure(runNode(terminologyLookup, { on_unknown: 'fail' }, { value: bundle }));
    expect(e.code).toBe('TERMINOLOGY_UNKNOWN_CODE');
    expect(e.message).toMatch(/^Unknown code\(s\): /);
  });

  it('fails with VALUE_INVALID on text', async () => {
    expect((await failure(runNode(terminologyLookup, {}, { value: 'F' }))).code).toBe('VALUE_INVALID');
  });
});
