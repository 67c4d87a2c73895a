import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TriggerHost } from '@/engine/node-type';
import type { Principal } from '@/server/auth/principal';
import { executions, organizations } from '@/server/db/schema';
import type { Queue } from '@/server/queue/queue';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime } from '../../../../tests/support/runtime';
import { serviceContext, type ServiceContext } from '../context';
import { createPipeline } from '../pipelines/create-pipeline';
import { getPipeline } from '../pipelines/get-pipeline';
import { setDeployed } from '../pipelines/set-deployed';
import { updatePipeline } from '../pipelines/update-pipeline';
import { runScheduled } from './scheduled';

/*
 * tick (schedule-trigger, cron, inputs {source}) ──event──▶ out (pipeline-output "event")
 */
const scheduled = (cron: string, source: string) => ({
  nodes: [
    { id: 'tick', type: 'schedule-trigger', config: { cron, inputs: { source } }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'event' }, position: { x: 240, y: 0 } },
  ],
  connections: [{ source: 'tick', source_port: 'event', target: 'out', target_port: 'value' }],
});

/** A trigger host that records what was asked of it (the queue's schedules, the process's ports). */
function recordingHost() {
  const calls: string[] = [];
  const host: TriggerHost = {
    schedule: async (_t, cron) => void calls.push(`schedule ${cron}`),
    unschedule: async () => void calls.push('unschedule'),
    listen: async (_t, o) => void calls.push(`listen ${o.port}`),
    unlisten: async () => void calls.push('unlisten'),
  };
  return { host, calls };
}

describe('schedules run the deployed version', () => {
  let rt: Runtime;
  let ctx: ServiceContext;
  const { host, calls } = recordingHost();
  beforeAll(async () => {
    rt = await memoryRuntime();
    await rt.db.insert(organizations).values({ id: 'org-sched', name: 'org-sched' });
    const principal: Principal = { kind: 'api-key', orgId: 'org-sched', scopes: ['admin'], keyId: '00000000-0000-4000-8000-000000000001' };
    ctx = { ...serviceContext(rt, principal), queue: { triggers: host } as unknown as Queue };
  });
  afterAll(() => rt.database.close());

  const lastRun = async (pipelineId: string) => {
    const [row] = await rt.db.select().from(executions).where(eq(executions.pipelineId, pipelineId)).orderBy(desc(executions.createdAt)).limit(1);
    return row!;
  };

  it('a save leaves the schedule and what it runs alone; the next deploy swaps both', async () => {
    const p = await createPipeline(ctx, { name: 'nightly', description: '', definition: scheduled('0 2 * * *', 'first') });
    await setDeployed(ctx, p.id, true);
    expect(calls.splice(0)).toContain('schedule 0 2 * * *');

    const saved = await updatePipeline(ctx, { id: p.id, definition: scheduled('*/15 * * * *', 'second') });
    expect(saved).toMatchObject({ version: 2, deployed_version: 1 });
    expect(calls.splice(0)).toEqual([]); // nothing that runs was touched

    const target = { pipelineId: p.id, orgId: 'org-sched' };
    await runScheduled(rt, host, target);
    expect(await lastRun(p.id)).toMatchObject({ pipelineVersion: 1, trigger: 'schedule', status: 'completed', outputs: { event: { source: 'first' } } });

    expect(await setDeployed(ctx, p.id, true)).toMatchObject({ version: 2, deployed_version: 2 });
    expect(calls.splice(0)).toContain('schedule */15 * * * *');
    await runScheduled(rt, host, target);
    expect(await lastRun(p.id)).toMatchObject({ pipelineVersion: 2, outputs: { event: { source: 'second' } } });

    await setDeployed(ctx, p.id, false);
    expect(calls.splice(0)).toContain('unschedule');
    await runScheduled(rt, host, target); // a due schedule of a pipeline undeployed meanwhile removes itself
    expect(calls.splice(0)).toEqual(['unschedule']);
    expect(await lastRun(p.id)).toMatchObject({ pipelineVersion: 2 });
  });

  it('a redeploy whose trigger cannot start leaves the earlier version live, listening as before', async () => {
    const listener = (port: number) => ({
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port }, position: { x: 0, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: {}, position: { x: 240, y: 0 } },
      ],
      connections: [{ source: 'in', source_port: 'message', target: 'out', target_port: 'value' }],
    });
    const p = await createPipeline(ctx, { name: 'feed', description: '', definition: listener(42575) });
    await setDeployed(ctx, p.id, true);
    await updatePipeline(ctx, { id: p.id, definition: listener(42576) });
    calls.splice(0);
    const taken: TriggerHost = {
      ...host,
      listen: async (_t, o) => {
        calls.push(`listen ${o.port}`);
        if (o.port === 42576) throw Object.assign(new Error('Port 42576 is already in use'), { name: 'AppError', code: 'PORT_IN_USE' });
      },
    };
    const refused = { ...ctx, queue: { triggers: taken } as unknown as Queue };
    await expect(setDeployed(refused, p.id, true)).rejects.toMatchObject({ code: 'PORT_IN_USE' });
    // the earlier version's port is listened on again
    expect(calls.filter((c) => c.startsWith('listen'))).toEqual(['listen 42576', 'listen 42575']);
    const [after] = await rt.db.select().from(executions).where(eq(executions.pipelineId, p.id));
    expect(after).toBeUndefined();
    expect(await getPipeline(ctx, p.id)).toMatchObject({ status: 'deployed', version: 2, deployed_version: 1 });
  });
});
