import { describe, expect, it } from 'vitest';
import { switchNode } from './switch.execute';
import { runNode, SYNTHEA_CONDITIONS, SYNTHEA_PATIENTS } from '../../../tests/support/engine/node-context';

const byType = {
  cases: [
    { port: 'patients', expression: 'resourceType = "Patient"' },
    { port: 'conditions', expression: 'resourceType = "Condition"' },
    { port: 'active', expression: 'clinicalStatus.coding[0].code = "active"' },
  ],
};

describe('switch', () => {
  it('declares one output port per case plus default', () => {
    const config = switchNode.config.parse(byType);
    expect(switchNode.ports(config).outputs.map((p) => p.name)).toEqual(['patients', 'conditions', 'active', 'default']);
    expect(config.mode).toBe('first');
  });

  it('fires only the first matching case in "first" mode', async () => {
    const activeCondition = SYNTHEA_CONDITIONS[1];
    expect(await runNode(switchNode, byType, { value: SYNTHEA_PATIENTS[0] })).toEqual({ outputs: { patients: SYNTHEA_PATIENTS[0] } });
    expect(await runNode(switchNode, byType, { value: activeCondition })).toEqual({ outputs: { conditions: activeCondition } });
  });

  it('fires every matching case in "all" mode', async () => {
    const activeCondition = SYNTHEA_CONDITIONS[1];
    const r = await runNode(switchNode, { ...byType, mode: 'all' }, { value: activeCondition });
    expect(r.outputs).toEqual({ conditions: activeCondition, active: activeCondition });
  });

  it('falls back to default when nothing matches', async () => {
    const encounter = { resourceType: 'Encounter', id: 'e1' };
    expect(await runNode(switchNode, byType, { value: encounter })).toEqual({ outputs: { default: encounter } });
    expect(await runNode(switchNode, { ...byType, mode: 'all' }, { value: encounter })).toEqual({ outputs: { default: encounter } });
  });

  it('refuses duplicate, reserved and non-identifier port names, and bad expressions', () => {
    const issues = (cases: unknown) => switchNode.config.safeParse({ cases }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(
      issues([
        { port: 'a', expression: '1' },
        { port: 'a', expression: '2' },
      ]),
    ).toEqual(['cases.1.port: duplicate port name "a"']);
    expect(issues([{ port: 'default', expression: '1' }])[0]).toMatch(/reserved/);
    expect(issues([{ port: 'has space', expression: '1' }])[0]).toMatch(/identifiers/);
    expect(issues([{ port: 'ok', expression: 'a ==' }])[0]).toMatch(/^cases\.0\.expression: .*does not compile/);
    expect(issues([])[0]).toMatch(/cases/);
    expect(issues(Array.from({ length: 21 }, (_, i) => ({ port: `p${i}`, expression: '1' })))).toHaveLength(1);
  });

  it('fails with SWITCH_FAILED when a case breaks on the data', async () => {
    const config = { cases: [{ port: 'big', expression: '$number(size) > 10' }] };
    await expect(runNode(switchNode, config, { value: { size: 'large' } })).rejects.toMatchObject({ code: 'SWITCH_FAILED' });
  });
});
