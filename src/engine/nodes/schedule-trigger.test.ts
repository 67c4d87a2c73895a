import { describe, expect, it } from 'vitest';
import { scheduleTriggerNode as scheduleTrigger } from './schedule-trigger.execute';
import { nextRuns } from './schedule-trigger';
import { runNode, testContext } from '../../../tests/support/engine/node-context';

describe('schedule-trigger', () => {
  it('is a trigger with no inputs and one event output', () => {
    const config = scheduleTrigger.config.parse({ cron: '0 2 * * *' });
    expect(scheduleTrigger.trigger?.events).toEqual(['schedule']);
    expect(
      scheduleTrigger.trigger?.toInputs(
        { kind: 'schedule', at: '2025-01-06T02:00:00.000Z' },
        scheduleTrigger.config.parse({ cron: '0 2 * * *', inputs: { source: 'nightly' } }),
      ),
    ).toEqual({ source: 'nightly', scheduled_at: '2025-01-06T02:00:00.000Z' });
    expect(scheduleTrigger.ports(config).inputs).toEqual([]);
    expect(scheduleTrigger.ports(config).outputs).toEqual([expect.objectContaining({ name: 'event', type: 'trigger-event' })]);
    expect(config).toEqual({ cron: '0 2 * * *', timezone: 'UTC', inputs: {} });
  });

  it('emits the execution inputs the scheduler passes', async () => {
    const inputs = { scheduled_at: '2025-01-06T02:00:00.000Z', source: 'nightly' };
    const r = await runNode(scheduleTrigger, { cron: '0 2 * * *', inputs: { source: 'nightly' } }, {}, testContext({ executionInputs: inputs }));
    expect(r.outputs).toEqual({ event: inputs });
  });

  it('gives a manual run the same shape: scheduled_at now and the configured inputs', async () => {
    const before = Date.now();
    const r = await runNode(scheduleTrigger, { cron: '@daily', inputs: { source: 'nightly', batch: 1 } }, {}, testContext({ executionInputs: { batch: 2 } }));
    const event = r.outputs.event as { scheduled_at: string; source: string; batch: number };
    expect(event).toMatchObject({ source: 'nightly', batch: 2 });
    expect(Date.parse(event.scheduled_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('refuses invalid cron expressions and unknown time zones when the config is parsed', () => {
    const issue = (config: unknown) => scheduleTrigger.config.safeParse(config).error?.issues[0];
    expect(issue({ cron: 'every night' })).toMatchObject({ path: ['cron'], message: expect.stringContaining('not a valid cron expression') });
    expect(issue({ cron: '0 0 30 2 *' })).toMatchObject({ path: ['cron'] }); // 30 February never comes
    expect(issue({ cron: '61 * * * *' })).toMatchObject({ path: ['cron'] });
    expect(issue({ cron: '0 2 * * *', timezone: 'Mars/Olympus' })).toMatchObject({ path: ['timezone'] });
    expect(issue({})).toMatchObject({ path: ['cron'] });
    expect(issue({ cron: '*/5 * * * * *' })).toMatchObject({ path: ['cron'], message: expect.stringContaining('at most once a minute') });
    expect(scheduleTrigger.config.safeParse({ cron: '*/15 8-17 * * MON-FRI', timezone: 'America/Chicago' }).success).toBe(true);
    // a bad time zone does not hide a bad cron: both are reported at once, the cron with an example to follow
    const both = scheduleTrigger.config.safeParse({ cron: 'every night', timezone: 'Mars/Olympus' }).error?.issues ?? [];
    expect(both.map((i) => i.path[0])).toEqual(['cron', 'timezone']);
    expect(both[0]!.message).toContain('such as 0 2 * * *');
  });

  it('computes the next runs in the configured time zone, across daylight saving', () => {
    const from = new Date('2025-03-08T12:00:00Z');
    expect(nextRuns({ cron: '0 2 * * *', timezone: 'UTC' }, 2, from)).toEqual(['2025-03-09T02:00:00.000Z', '2025-03-10T02:00:00.000Z']);
    // 06:00 in Chicago is 12:00Z in winter (CST) and 11:00Z after the 9 March switch to CDT
    expect(nextRuns({ cron: '0 6 * * *', timezone: 'America/Chicago' }, 2, from)).toEqual(['2025-03-09T11:00:00.000Z', '2025-03-10T11:00:00.000Z']);
  });
});
