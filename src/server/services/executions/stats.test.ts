import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '@/server/api/root';
import { createContext } from '@/server/api/trpc';
import { executions } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
};

describe('execution stats and triggers', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('labels a run started from the editor as such, and leaves step sessions (think time) out of the average duration', async () => {
    const api = await orgCaller(rt, 'org-stats');
    const editor = createCaller(
      createContext(rt, { kind: 'session', orgId: 'org-stats', userId: 'user-1', scopes: ['read', 'write', 'execute'] }, undefined, 'app'),
    );
    const p = await api.pipelines.create({ name: 'p', description: '', definition });

    const byApi = await api.executions.execute({ pipeline_id: p.id, inputs: {}, test_mode: true, async: false });
    const byEditor = await editor.executions.execute({ pipeline_id: p.id, inputs: {}, test_mode: true, async: false });
    expect((await api.executions.get({ id: byApi.execution_id })).trigger).toBe('api');
    expect((await api.executions.get({ id: byEditor.execution_id })).trigger).toBe('editor');

    // both runs take 10 ms; a step session someone left open for an hour finished too
    await rt.db.update(executions).set({ durationMs: 10 }).where(eq(executions.orgId, 'org-stats'));
    const session = await editor.executions.stepStart({ pipeline_id: p.id, inputs: {}, test_mode: true });
    let state = await editor.executions.stepAdvance({ sessionId: session.session_id });
    while (state.status !== 'completed') state = await editor.executions.stepAdvance({ sessionId: session.session_id });
    const [stepped] = await rt.db.select().from(executions).where(eq(executions.trigger, 'step'));
    expect(stepped!.status).toBe('completed');
    await rt.db.update(executions).set({ durationMs: 3_600_000 }).where(eq(executions.id, stepped!.id));

    const stats = await api.executions.stats({ pipeline_id: p.id });
    expect(stats.total_executions).toBe(3);
    expect(stats.average_duration_ms).toBe(10);
  });
});
