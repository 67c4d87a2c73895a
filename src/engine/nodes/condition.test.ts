import { describe, expect, it } from 'vitest';
import { conditionNode as condition } from './condition.execute';
import { runNode, SYNTHEA_CONDITIONS, SYNTHEA_PATIENTS, testContext } from '../../../tests/support/engine/node-context';

const [deceased, , living] = SYNTHEA_PATIENTS;

describe('condition', () => {
  it('sends the value, unchanged, out of the branch the expression picks', async () => {
    const config = { expression: '$exists(deceasedDateTime)' };
    expect(await runNode(condition, config, { value: deceased })).toEqual({ outputs: { true: deceased } });
    expect(await runNode(condition, config, { value: living })).toEqual({ outputs: { false: living } });
  });

  it('fires exactly one branch, so the other is skipped downstream', async () => {
    const r = await runNode(condition, { expression: 'clinicalStatus.coding[0].code = "active"' }, { value: SYNTHEA_CONDITIONS[0] });
    expect(Object.keys(r.outputs)).toEqual(['false']); // the first sample Condition is resolved
  });

  it('follows JSONata truthiness: no match, empty string, 0, empty array are false', async () => {
    const branch = async (expression: string, value: unknown) => Object.keys((await runNode(condition, { expression }, { value })).outputs)[0];
    expect(await branch('missing.field', { a: 1 })).toBe('false');
    expect(await branch('name', { name: '' })).toBe('false');
    expect(await branch('count', { count: 0 })).toBe('false');
    expect(await branch('codes', { codes: [] })).toBe('false');
    expect(await branch('codes', { codes: ['E11.9'] })).toBe('true');
    expect(await branch('gender = "female"', living)).toBe('false');
    expect(await branch('$count(name.given) > 1', living)).toBe('true');
  });

  it('refuses an expression that does not compile when the config is parsed', () => {
    const parsed = condition.config.safeParse({ expression: 'gender = ' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/does not compile.*position/);
    expect(condition.config.safeParse({}).success).toBe(false);
  });

  it('fails with CONDITION_FAILED when the expression breaks on the data', async () => {
    await expect(runNode(condition, { expression: '$sum(name)' }, { value: { name: 'x' } })).rejects.toMatchObject({
      code: 'CONDITION_FAILED',
      message: expect.stringContaining('sum'),
    });
  });

  it('logs the decision', async () => {
    const ctx = testContext();
    await runNode(condition, { expression: 'gender' }, { value: living }, ctx);
    expect(ctx.logs.map((l) => l.message).join()).toContain('taking "true"');
  });
});
