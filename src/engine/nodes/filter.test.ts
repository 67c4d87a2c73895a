import { describe, expect, it } from 'vitest';
import { filterNode as filter } from './filter.execute';
import { runNode, SYNTHEA_CONDITIONS, SYNTHEA_PATIENTS, testContext } from '../../../tests/support/engine/node-context';

describe('filter', () => {
  it('splits Conditions into active (kept) and the rest (rejected), keeping order', async () => {
    const ctx = testContext();
    const r = await runNode(filter, { expression: 'clinicalStatus.coding[0].code = "active"' }, { items: SYNTHEA_CONDITIONS }, ctx);
    expect((r.outputs.kept as typeof SYNTHEA_CONDITIONS).map((c) => c.id)).toEqual(SYNTHEA_CONDITIONS.slice(1).map((c) => c.id));
    expect(r.outputs.rejected).toEqual([SYNTHEA_CONDITIONS[0]]);
    expect(ctx.logs.map((l) => l.message)).toContain('kept 4 of 5 item(s), rejected 1');
  });

  it('fires both ports even when one side is empty', async () => {
    const r = await runNode(filter, { expression: 'resourceType = "Patient"' }, { items: SYNTHEA_PATIENTS });
    expect(r.outputs).toEqual({ kept: SYNTHEA_PATIENTS, rejected: [] });
    const none = await runNode(filter, { expression: 'true' }, { items: [] });
    expect(none.outputs).toEqual({ kept: [], rejected: [] });
  });

  it('binds the item as $ and its position as $index', async () => {
    const r = await runNode(filter, { expression: '$index < 2 and gender = "male"' }, { items: SYNTHEA_PATIENTS });
    expect((r.outputs.kept as { id: string }[]).map((p) => p.id)).toEqual(['3af3708d-41f1-cd80-f3dd-ec5ac76072bf']);
  });

  it('compares dates and existence the way clinical filters need', async () => {
    const r = await runNode(filter, { expression: 'birthDate < "1970-01-01" and $not($exists(deceasedDateTime))' }, { items: SYNTHEA_PATIENTS });
    expect((r.outputs.kept as { name: { family: string }[] }[]).map((p) => p.name[0]!.family)).toEqual(['Cummings51']);
  });

  it('fails with NOT_AN_ARRAY on anything but an array', async () => {
    await expect(runNode(filter, { expression: 'true' }, { items: SYNTHEA_PATIENTS[0] })).rejects.toMatchObject({ code: 'NOT_AN_ARRAY' });
  });

  it('names the item a predicate breaks on', async () => {
    const items = [{ n: 1 }, { n: 'x' }];
    await expect(runNode(filter, { expression: 'n + 1 > 1' }, { items })).rejects.toMatchObject({
      code: 'FILTER_FAILED',
      message: expect.stringMatching(/^Item 1: /),
    });
  });

  it('refuses an expression that does not compile', () => {
    expect(filter.config.safeParse({ expression: 'gender = "male' }).success).toBe(false);
  });
});
