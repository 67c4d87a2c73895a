import type { Bundle, ExplanationOfBenefit } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseX12, type X12Interchange } from '@/clinical/x12';
import { r4Errors, x12Sample, x12Samples } from '../../../tests/support/clinical/x12';
import { failure, runNode, testContext } from '../../../tests/support/engine/node-context';
import { x12835ToFhirNode as x12835ToFhir } from './x12-835-to-fhir.execute';

function interchange(text: string): X12Interchange {
  const r = parseX12(text);
  if (!r.ok) throw new Error('does not parse');
  return r.interchange;
}

describe('x12-835-to-fhir', () => {
  it('works with its default config: every 835 sample gives valid R4 ExplanationOfBenefits', async () => {
    for (const { name, text } of x12Samples('835')) {
      const r = await runNode(x12835ToFhir, {}, { interchange: interchange(text) });
      const bundle = r.outputs.bundle as Bundle;
      const eobs = bundle.entry!.filter((e) => e.resource!.resourceType === 'ExplanationOfBenefit');
      expect(eobs.length, name).toBe(text.split('~').filter((s) => s.trim().startsWith('CLP*')).length);
      for (const e of bundle.entry!) expect(r4Errors(e.resource!), name).toEqual([]);
    }
  });

  it('gives paid amounts, adjustments and status per claim, and logs its counts', async () => {
    const ctx = testContext();
    const r = await runNode(x12835ToFhir, {}, { interchange: interchange(x12Sample('835_005010X221A1/medicare-part-a.835')) }, ctx);
    const eobs = (r.outputs.bundle as Bundle)
      .entry!.map((e) => e.resource!)
      .filter((x): x is ExplanationOfBenefit => x.resourceType === 'ExplanationOfBenefit');
    expect(eobs.map((e) => [e.identifier?.[0]?.value, e.disposition, e.payment?.amount?.value, e.adjudication?.[0]?.reason?.coding?.[0]?.code])).toEqual([
      ['666123', 'Processed as primary', 138018.4, '45'],
      ['777777', 'Processed as primary', 11980.33, '45'],
    ]);
    expect(ctx.logs.map((l) => l.message)).toEqual(['2 ExplanationOfBenefit(s), 6 related resource(s)']);
  });

  it('fails with X12_NOT_835 on an 837 and X12_VALUE_INVALID on plain JSON', async () => {
    const e = await failure(runNode(x12835ToFhir, {}, { interchange: interchange(x12Sample('837_005010X222A2/demo.example1.837')) }));
    expect(e).toMatchObject({
      code: 'X12_NOT_835',
      message: 'The interchange holds no 835 transaction set (it has 837): connect an 835 (claim payment/advice) interchange.',
    });
    expect((await failure(runNode(x12835ToFhir, {}, { interchange: 'ISA*00*' }))).code).toBe('X12_VALUE_INVALID');
  });
});
