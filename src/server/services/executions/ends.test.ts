import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXECUTE_QUEUE, type Queue } from '@/server/queue/queue';
import type { Runtime } from '@/server/runtime';
import { idleQueueRuntime, orgCaller } from '../../../../tests/support/runtime';
import { startExecution } from './start-execution';
import { sweep } from './sweep';

/*
 * in (manual-trigger, field text) ──▶ echo (jsonata: the text and a NUL) ──▶ out
 */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'echo', type: 'jsonata-transform', config: { expression: '{"text": text, "nul": "a" & $string($) & "\\u0000z"}' }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'echo', target_port: 'input' },
    { source: 'echo', source_port: 'output', target: 'out', target_port: 'value' },
  ],
};

describe('every run ends, and frees its slot', () => {
  let rt: Runtime;
  let queue: Queue;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ rt, queue, close } = await idleQueueRuntime());
  }, 60_000);
  afterAll(() => close());

  it('stores outputs holding NUL characters and lone surrogates (as U+FFFD) instead of failing the final write', async () => {
    const a = await orgCaller(rt, 'org-nul');
    const p = await a.pipelines.create({ name: 'nul', description: '', definition });
    const r = await a.executions.execute({ pipeline_id: p.id, inputs: { text: 'lone \ud800 and nul \u0000' }, test_mode: true, async: false });
    expect(r.status).toBe('completed');
    const stored = await a.executions.get({ id: r.execution_id });
    expect(stored.status).toBe('completed');
    expect(stored.inputs).toEqual({ text: 'lone \ufffd and nul \ufffd' });
    expect(stored.outputs).toEqual({ out: { text: 'lone \ufffd and nul \ufffd', nul: expect.stringMatching(/\ufffdz$/) } });
  });

  it('fails queued runs whose job the queue gave up, and leaves those whose job is alive', async () => {
    const a = await orgCaller(rt, 'org-abandoned');
    const p = await a.pipelines.create({ name: 'async', description: '', definition });
    // two async runs as POST /api/execute writes them: the queued row, and its job
    const queued = async () => {
      const { id } = await startExecution(rt.db, {
        orgId: 'org-abandoned',
        pipelineId: p.id,
        pipelineVersion: 1,
        trigger: 'async',
        testMode: true,
        inputs: {},
        status: 'queued',
      });
      await queue.boss.send(EXECUTE_QUEUE, { executionId: id });
      return { execution_id: id };
    };
    const given = await queued();
    const alive = await queued();
    await rt.db.execute(sql`update pgboss.job set state = 'failed' where name = ${EXECUTE_QUEUE} and data->>'executionId' = ${given.execution_id}`);

    // within the grace period nothing is looked at; after it, only the run whose job is dead ends
    expect((await sweep(rt.db, new Date(), EXECUTE_QUEUE)).abandoned).toBe(0);
    const later = new Date(Date.now() + 10 * 60_000);
    expect((await sweep(rt.db, later, EXECUTE_QUEUE)).abandoned).toBe(1);
    expect(await a.executions.get({ id: given.execution_id })).toMatchObject({ status: 'failed', error: { code: 'RUN_ABANDONED' } });
    expect((await a.executions.get({ id: alive.execution_id })).status).toBe('queued');
  });
});
