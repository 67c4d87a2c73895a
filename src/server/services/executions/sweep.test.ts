import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executions, stepSessions } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { sweep } from './sweep';

const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
};

describe('maintenance sweep', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('expires idle step sessions and fails sync runs whose process died; leaves live ones alone', async () => {
    const a = await orgCaller(rt, 'org-sweep');
    const p = await a.pipelines.create({ name: 'p', description: '', definition });
    const idle = await a.executions.stepStart({ pipeline_id: p.id, inputs: {}, test_mode: true });
    const live = await a.executions.stepStart({ pipeline_id: p.id, inputs: {}, test_mode: true });
    const done = await a.executions.execute({ pipeline_id: p.id, inputs: {}, test_mode: true, async: false });
    // a sync run that was left running two hours ago (its process died)
    await rt.db
      .update(executions)
      .set({ status: 'running', startedAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(executions.id, done.execution_id));

    const inTwoHours = new Date(Date.now() + 2 * 3600_000);
    const later = new Date(Date.now() + 30 * 60_000);
    expect(await sweep(rt.db, later)).toEqual({ expired: 0, interrupted: 1, abandoned: 0 });
    const result = await sweep(rt.db, inTwoHours);
    expect(result.expired).toBe(2);

    const status = async (id: string) => (await a.executions.get({ id })).status;
    expect(await status(idle.execution_id)).toBe('cancelled');
    expect(await status(live.execution_id)).toBe('cancelled');
    expect(await a.executions.get({ id: done.execution_id })).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    // the same answer as before the sweep marked it: one rule decides what an expired session is
    await expect(a.executions.stepAdvance({ sessionId: idle.session_id })).rejects.toMatchObject({ cause: { code: 'STEP_SESSION_EXPIRED' } });
  });

  it('answers 410 STEP_SESSION_EXPIRED for an idle session before the sweep ran as after, and cancels its execution once', async () => {
    const a = await orgCaller(rt, 'org-sweep-before');
    const p = await a.pipelines.create({ name: 'p', description: '', definition });
    const before = await a.executions.stepStart({ pipeline_id: p.id, inputs: {}, test_mode: true });
    const after = await a.executions.stepStart({ pipeline_id: p.id, inputs: {}, test_mode: true });
    // both were last used more than an hour ago
    const anHourAgo = new Date(Date.now() - 3600_000 - 1000);
    for (const s of [before, after]) await rt.db.update(stepSessions).set({ expiresAt: anHourAgo }).where(eq(stepSessions.id, s.session_id));

    // no sweep yet: the step finds the session idle and answers as the sweep would have it
    await expect(a.executions.stepAdvance({ sessionId: before.session_id })).rejects.toMatchObject({ cause: { code: 'STEP_SESSION_EXPIRED' } });
    expect(await a.executions.get({ id: before.execution_id })).toMatchObject({ status: 'cancelled', error: { code: 'STEP_SESSION_EXPIRED' } });
    // the sweep then marks only the other one (the step already marked its own)
    expect((await sweep(rt.db)).expired).toBe(1);
    await expect(a.executions.stepAdvance({ sessionId: after.session_id })).rejects.toMatchObject({ cause: { code: 'STEP_SESSION_EXPIRED' } });
    await expect(a.executions.stepAdvance({ sessionId: before.session_id })).rejects.toMatchObject({ cause: { code: 'STEP_SESSION_EXPIRED' } });
    expect(await a.executions.get({ id: after.execution_id })).toMatchObject({ status: 'cancelled', error: { code: 'STEP_SESSION_EXPIRED' } });
  });
});
