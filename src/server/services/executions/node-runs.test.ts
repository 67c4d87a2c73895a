import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRun } from '@/engine/execute-node';
import { executionNodes, executions, pipelines } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { compactNodeRuns, nodeRowsOf } from './node-runs';

/* in (manual-trigger, field name) ──▶ upper (jsonata: upper case, or $error when refused) ──▶ out */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { name: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'upper', type: 'jsonata-transform', config: { expression: 'name = "refuse" ? $error("refused") : $uppercase(name)' }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'upper', target_port: 'input' },
    { source: 'upper', source_port: 'output', target: 'out', target_port: 'value' },
  ],
};

describe('node records stored compactly in the run', () => {
  it('gives back every node its status, type, attempts, timings, error, skip reason and logs', () => {
    const t = 1_800_000_000_000;
    const records = [
      {
        ...emptyRun('completed'),
        node_id: 'a',
        node_type: 'manual-trigger',
        attempts: 1,
        started_ms: t + 5,
        finished_ms: t + 7,
        duration_ms: 2,
        logs: [{ level: 'info' as const, message: 'received', time: new Date(t + 6).toISOString() }],
      },
      {
        ...emptyRun('failed', { code: 'X', message: 'boom' }),
        node_id: 'b',
        node_type: 'jsonata-transform',
        attempts: 3,
        started_ms: t,
        finished_ms: t + 40,
        duration_ms: 40,
        logs: [{ level: 'warn' as const, message: 'slow', time: '2027-01-15T08:00:00.000Z' }],
      },
      { ...emptyRun('skipped'), node_id: 'c', node_type: 'pipeline-output', reason: 'upstream_failed' as const },
    ];
    const compact = compactNodeRuns(records);
    expect(compact.t0).toBe(t);
    expect(compact.nodes[2]).toEqual(['c', 'pipeline-output', 'skipped', 0, null, null, null, null, 'upstream_failed']);
    const rows = nodeRowsOf('e1', JSON.parse(JSON.stringify(compact)));
    expect(rows.map((r) => [r.nodeId, r.nodeType, r.status, r.attempts, r.startedAt?.getTime(), r.finishedAt?.getTime(), r.durationMs])).toEqual([
      ['a', 'manual-trigger', 'completed', 1, t + 5, t + 7, 2],
      ['b', 'jsonata-transform', 'failed', 3, t, t + 40, 40],
      ['c', 'pipeline-output', 'skipped', 0, undefined, undefined, null],
    ]);
    expect(compact.nodes[0]![9]).toEqual([[6, 'received']]); // a log entry: its time after t0, its message, its level unless info
    expect(rows[0]!.logs).toEqual(records[0]!.logs);
    expect(rows[1]).toMatchObject({ error: { code: 'X', message: 'boom' }, logs: records[1]!.logs, reason: null, inputs: {}, outputs: {} });
    expect(rows[2]).toMatchObject({ reason: 'upstream_failed', error: null, logs: [], executionId: 'e1' });
    expect(nodeRowsOf('e1', null)).toEqual([]);
  });

  describe('a production run under `errors`', () => {
    let rt: Runtime;
    beforeAll(async () => {
      rt = await memoryRuntime();
    }, 60_000);
    afterAll(() => rt.database.close());

    it('that succeeds writes no execution_nodes row, and its detail, stats and dashboard still show every node; a failed one keeps rows', async () => {
      const api = await orgCaller(rt, 'org-compact');
      const p = await api.pipelines.create({ name: 'compact', description: '', definition });
      await rt.db
        .update(pipelines)
        .set({ dataSettings: { policy: 'errors' } })
        .where(eq(pipelines.id, p.id));
      await api.pipelines.deploy({ id: p.id });
      const ok = await api.executions.execute({ pipeline_id: p.id, inputs: { name: 'ana' }, test_mode: false, async: false });
      const bad = await api.executions.execute({ pipeline_id: p.id, inputs: { name: 'refuse' }, test_mode: false, async: false });
      expect([ok.status, bad.status]).toEqual(['completed', 'failed']);
      const rowsOf = async (id: string) => (await rt.db.select().from(executionNodes).where(eq(executionNodes.executionId, id))).length;
      expect(await rowsOf(ok.execution_id)).toBe(0);
      expect(await rowsOf(bad.execution_id)).toBe(3);
      const [row] = await rt.db.select({ nodeRuns: executions.nodeRuns }).from(executions).where(eq(executions.id, ok.execution_id));
      expect(row!.nodeRuns!.nodes).toHaveLength(3);

      const detail = await api.executions.get({ id: ok.execution_id });
      expect(detail).toMatchObject({ status: 'completed', payloads: 'not_kept', inputs: null });
      expect(detail.nodes.map((n) => [n.node_id, n.node_type, n.status, n.payloads, n.inputs])).toEqual([
        ['in', 'manual-trigger', 'completed', 'not_kept', null],
        ['upper', 'jsonata-transform', 'completed', 'not_kept', null],
        ['out', 'pipeline-output', 'completed', 'not_kept', null],
      ]);
      for (const n of detail.nodes) {
        expect(n.duration_ms).toEqual(expect.any(Number));
        expect(Date.parse(n.finished_at!) - Date.parse(n.started_at!)).toBeGreaterThanOrEqual(0);
      }
      expect(detail.stored_bytes).toBeGreaterThan(0);

      const stats = await api.executions.stats({ pipeline_id: p.id });
      expect(stats).toMatchObject({ total_executions: 2, by_status: { completed: 1, failed: 1 }, success_rate: 0.5 });
      expect(stats.error_distribution).toEqual([{ node_type: 'jsonata-transform', count: 1, codes: { TRANSFORM_FAILED: 1 } }]);
      const board = await api.executions.dashboard({ days: 7, time_zone: 'UTC' });
      // the successful run's nodes (compact) and the failed run's completed trigger (a row)
      const runs = Object.fromEntries(board.slowest_nodes.filter((n) => n.pipeline_id === p.id).map((n) => [n.node_id, n.runs]));
      expect(runs).toEqual({ in: 2, upper: 1, out: 1 });
    });
  });
});
