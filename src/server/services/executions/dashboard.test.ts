import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

/*
 * in (manual-trigger) ──▶ work (jsonata: `expression`) ──▶ out
 */
const definition = (expression: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'work', type: 'jsonata-transform', config: { expression }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'work', target_port: 'input' },
    { source: 'work', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

describe('dashboard', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('counts runs per day in the viewer’s time zone, ranks failing pipelines and slow nodes, and leaves step sessions out', async () => {
    const a = await orgCaller(rt, 'org-dashboard');
    const ok = await a.pipelines.create({ name: 'Admissions', description: '', definition: definition('$sum([1..20000])') });
    const bad = await a.pipelines.create({ name: 'Claims', description: '', definition: definition('$error("no payer")') });
    for (let i = 0; i < 3; i++) await a.executions.execute({ pipeline_id: ok.id, inputs: {}, test_mode: true, async: false });
    for (let i = 0; i < 2; i++) await a.executions.execute({ pipeline_id: bad.id, inputs: {}, test_mode: true, async: false });
    await a.executions.execute({ pipeline_id: ok.id, inputs: {}, test_mode: true, async: false });
    await a.executions.stepStart({ pipeline_id: ok.id, inputs: {}, test_mode: true });
    // another organization's runs are not counted
    const b = await orgCaller(rt, 'org-dashboard-other');
    const other = await b.pipelines.create({ name: 'Other', description: '', definition: definition('1') });
    await b.executions.execute({ pipeline_id: other.id, inputs: {}, test_mode: true, async: false });

    const d = await a.executions.dashboard({ days: 7, time_zone: 'America/New_York' });
    expect(d.days).toHaveLength(7);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    expect(d.days.at(-1)).toEqual({ day: today, completed: 4, failed: 2, other: 0 });
    expect(d.days.slice(0, -1).every((x) => x.completed + x.failed + x.other === 0)).toBe(true);
    expect(d.failing_pipelines.map((p) => [p.name, p.runs, p.failed])).toEqual([
      ['Claims', 2, 2],
      ['Admissions', 4, 0],
    ]);
    expect(d.failing_pipelines[0]!.failure_rate).toBe(1);
    const slow = d.slowest_nodes.find((n) => n.pipeline_name === 'Admissions' && n.node_id === 'work')!;
    expect(slow).toMatchObject({ node_type: 'jsonata-transform', runs: 4 });
    expect(slow.p95_ms).toBeGreaterThanOrEqual(slow.avg_ms - 1);
    await expect(a.executions.dashboard({ days: 7, time_zone: 'Mars/Olympus' })).rejects.toThrow(/Not a time zone/);
  });
});
