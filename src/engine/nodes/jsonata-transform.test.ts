import { describe, expect, it } from 'vitest';
import { jsonataTransformNode as jsonataTransform } from './jsonata-transform.execute';
import { runNode, SYNTHEA_CONDITIONS, SYNTHEA_PATIENTS, testContext } from '../../../tests/support/engine/node-context';

const toRow = '{"id": id, "family": name[0].family, "given": name[0].given[0], "born": birthDate, "zip": address[0].postalCode}';

describe('jsonata-transform', () => {
  it('reshapes a FHIR Patient into a flat row', async () => {
    const r = await runNode(jsonataTransform, { expression: toRow }, { input: SYNTHEA_PATIENTS[0] });
    expect(r.outputs).toEqual({
      output: { id: '129c6ac7-8d06-89de-ad63-0204a93e76c3', family: 'Medhurst46', given: 'Sumiko254', born: '1927-05-21', zip: '66801' },
    });
  });

  it('selects and aggregates across a Bundle', async () => {
    const bundle = { resourceType: 'Bundle', type: 'collection', entry: [...SYNTHEA_PATIENTS, ...SYNTHEA_CONDITIONS].map((resource) => ({ resource })) };
    const active = await runNode(
      jsonataTransform,
      { expression: 'entry.resource[resourceType = "Condition" and clinicalStatus.coding[0].code = "active"].code.text' },
      { input: bundle },
    );
    expect(active.outputs.output).toEqual([
      'Miscarriage in first trimester',
      'Non-small cell lung cancer (disorder)',
      'Anemia (disorder)',
      'Ischemic heart disease (disorder)',
    ]);
    // a plain array, not a JSONata sequence with extra properties
    expect(Object.keys(active.outputs.output as object)).toEqual(['0', '1', '2', '3']);
    const counts = await runNode(jsonataTransform, { expression: 'entry.resource{resourceType: $count($)}' }, { input: bundle });
    expect(counts.outputs.output).toEqual({ Patient: 4, Condition: 5 });
  });

  it('keeps concurrent runs of the same (shared, compiled once) expression apart', async () => {
    // every Synthea patient at once, through an expression that awaits inside ($map over an array)
    const expression = '{"id": id, "names": $map(name, function($n) { $n.family & ", " & $join($n.given, " ") })}';
    const runs = await Promise.all(SYNTHEA_PATIENTS.map((p) => runNode(jsonataTransform, { expression }, { input: p })));
    runs.forEach((r, i) => {
      const p = SYNTHEA_PATIENTS[i]!;
      expect(r.outputs.output).toMatchObject({ id: p.id });
      expect(JSON.stringify(r.outputs.output)).toContain(p.name[0]!.family);
    });
    expect(new Set(runs.map((r) => (r.outputs.output as { id: string }).id)).size).toBe(SYNTHEA_PATIENTS.length);
  });

  it('gives null when the expression matches nothing', async () => {
    expect((await runNode(jsonataTransform, { expression: 'nothing.here' }, { input: {} })).outputs).toEqual({ output: null });
  });

  it('catches a syntax error when the config is parsed, with the position', () => {
    const parsed = jsonataTransform.config.safeParse({ expression: '{"id": id,' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['expression'], message: expect.stringMatching(/position \d+/) });
  });

  it('fails with INVALID_EXPRESSION if an uncompilable expression reaches execute', async () => {
    const run = jsonataTransform.execute(testContext(), { input: {} }, { expression: 'a +' });
    await expect(run).rejects.toMatchObject({ code: 'INVALID_EXPRESSION', message: expect.stringContaining('position 3') });
  });

  it('fails with TRANSFORM_FAILED when evaluation breaks', async () => {
    await expect(runNode(jsonataTransform, { expression: '$sum(name.family)' }, { input: SYNTHEA_PATIENTS[0] })).rejects.toMatchObject({
      code: 'TRANSFORM_FAILED',
      message: expect.stringContaining('must be an array of "numbers"'),
    });
  });

  it('stops runaway recursion instead of hanging', async () => {
    const started = Date.now();
    const run = runNode(jsonataTransform, { expression: '($f := function($n) { 1 + $f($n + 1) }; $f(0))' }, { input: {} });
    await expect(run).rejects.toMatchObject({ code: 'TRANSFORM_FAILED', message: expect.stringContaining('D1011') });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
