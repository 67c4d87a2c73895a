import type { Bundle, Claim } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { parseX12, type X12Interchange } from '@/clinical/x12';
import { r4Errors, x12Sample, x12Samples } from '../../../tests/support/clinical/x12';
import { runPipeline } from '../run';
import { getNodeType } from './index';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { x12837ToFhirNode as x12837ToFhir } from './x12-837-to-fhir.execute';

function interchange(text: string): X12Interchange {
  const r = parseX12(text);
  if (!r.ok) throw new Error('does not parse');
  return r.interchange;
}

const claimsOf = (bundle: Bundle) => bundle.entry!.map((e) => e.resource!).filter((r): r is Claim => r.resourceType === 'Claim');

describe('x12-837-to-fhir', () => {
  it('works with its default config: every 837 sample gives valid R4 Claims', async () => {
    for (const { name, text } of x12Samples('837')) {
      const r = await runNode(x12837ToFhir, {}, { interchange: interchange(text) });
      const bundle = r.outputs.bundle as Bundle;
      expect(bundle.type, name).toBe('collection');
      expect(claimsOf(bundle).length, name).toBeGreaterThan(0);
      for (const e of bundle.entry!) expect(r4Errors(e.resource!), name).toEqual([]);
    }
  });

  it('logs what it made and what it could not carry over', async () => {
    const ctx = testContext();
    await runNode(x12837ToFhir, {}, { interchange: interchange(x12Sample('837_005010X222A2/demo.example12.837')) }, ctx);
    expect(ctx.logs.map((l) => `${l.level} ${l.message}`)).toEqual([
      'warn claim TS234H3: diagnosis pointer "1" of service line 1 points to no diagnosis (the claim has 0)',
      'info 1 Claim(s), 8 related resource(s)',
    ]);
  });

  it('fails with X12_NOT_837 on an 835 and X12_VALUE_INVALID on something that is not an interchange', async () => {
    const e = await failure(runNode(x12837ToFhir, {}, { interchange: interchange(x12Sample('835_005010X221A1/managed-care.835')) }));
    expect(e).toMatchObject({
      code: 'X12_NOT_837',
      message: 'The interchange holds no 837 transaction set (it has 835): connect an 837 (health care claim) interchange.',
    });
    const v = await failure(runNode(x12837ToFhir, {}, { interchange: { resourceType: 'Bundle' } }));
    expect(v.code).toBe('X12_VALUE_INVALID');
    expect(v.message).toContain('separators');
  });

  it('runs in a pipeline: text → x12-parse → claim-validate → x12-837-to-fhir, bad claims to a quarantine output', async () => {
    //   in(claim: text) ▶ parse ─interchange▶ edits ─valid──▶ fhir ─bundle▶ out
    //                                                └invalid▶ quarantine
    const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, config, position: { x: 0, y: 0 } });
    const link = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });
    const def = {
      nodes: [
        node('in', 'manual-trigger', { fields: { claim: 'text' } }),
        node('parse', 'x12-parse', { strict: true }),
        node('edits', 'claim-validate', { as_of: '2026-01-15' }),
        node('fhir', 'x12-837-to-fhir'),
        node('out', 'pipeline-output', { key: 'bundle' }),
        node('quarantine', 'pipeline-output', { key: 'quarantine' }),
      ],
      connections: [
        link('in', 'claim', 'parse', 'text'),
        link('parse', 'interchange', 'edits', 'interchange'),
        link('edits', 'valid', 'fhir', 'interchange'),
        link('fhir', 'bundle', 'out', 'value'),
        link('edits', 'invalid', 'quarantine', 'value'),
      ],
    };
    const run = (claim: string) =>
      runPipeline(def, { executionId: 'exec-x12', inputs: { claim }, testMode: false, registry: getNodeType, services: testServices() });
    const text = x12Sample('837_005010X222A2/demo.example1.837');
    const good = await run(text);
    expect(good.status).toBe('completed');
    expect(claimsOf(good.outputs.bundle as Bundle).map((c) => [c.identifier?.[0]?.value, c.total?.value])).toEqual([['26463774', 100]]);
    expect(good.nodes.quarantine!.status).toBe('skipped');

    const bad = await run(text.replace('SV1*HC:87070*15.00', 'SV1*HC:87070*25.00'));
    expect(bad.status).toBe('completed');
    expect(bad.nodes.fhir!.status).toBe('skipped');
    expect((bad.outputs.quarantine as { issues: { code: string; location: string }[] }).issues).toMatchObject([
      { code: 'TOTAL_MISMATCH', location: '2300 CLM CLM02' },
    ]);
  });
});
