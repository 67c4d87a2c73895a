import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { startServer, tempDir, type RunningServer } from '../support/server';
import { startSink } from '../support/sink';
import { startWorker } from '../support/worker';

const ORG = { id: 'worker-org', key: 'cfk_worker_test_key_0123456789' };
const QUEUE = { QUEUE_HEARTBEAT_SECONDS: '10', QUEUE_SUPERVISE_SECONDS: '1', QUEUE_CRON_SECONDS: '1' };

/*
 * in ──▶ write (http-request POST sink/write) ──▶ wait (http-request POST sink/slow, answers after 3 s) ──▶ out
 */
const definition = (sink: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger' },
    { id: 'write', type: 'http-request', config: { url: `${sink}/write` } },
    { id: 'wait', type: 'http-request', config: { url: `${sink}/slow` } },
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'write', target_port: 'body' },
    { source: 'write', source_port: 'response', target: 'wait', target_port: 'body' },
    { source: 'wait', source_port: 'response', target: 'out', target_port: 'value' },
  ],
});

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, seconds = 60): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('separate worker processes on Postgres', () => {
  let web: RunningServer;
  let api: Client;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let dbUrl: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestDatabase('workers');
    dbUrl = db.url;
    drop = db.drop;
    sink = await startSink(3000);
    web = await startServer({ DATABASE_URL: dbUrl, WORKER_IN_SERVER: 'false', BOOTSTRAP_ORG_ID: ORG.id, BOOTSTRAP_API_KEY: ORG.key, ...QUEUE });
    api = client(web.url, ORG);
  });
  afterAll(async () => {
    await web?.stop();
    await sink?.close();
    await drop?.();
  });

  it('a worker killed with SIGKILL mid-execution: another picks it up, it completes, nothing is written twice', async () => {
    const pipeline = (await api.post('/api/pipelines', { name: 'write then wait', definition: definition(sink.url) })).body.id;
    await api.post(`/api/pipelines/${pipeline}/deploy`);
    const first = await startWorker({ DATABASE_URL: dbUrl, ...QUEUE });
    const wrote = sink.next('/write');
    const started = await api.post('/api/execute', { pipeline_id: pipeline, inputs: { patient: 'Aaron Kshlerin' }, async: true });
    const id = started.body.execution_id as string;
    const write = await wrote;
    expect(write.idempotencyKey).toBe(`${id}:write`);
    await sink.next('/slow'); // the worker is now inside the slow call, after the write was recorded
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe(null);

    const second = await startWorker({ DATABASE_URL: dbUrl, ...QUEUE });
    try {
      const done = await waitFor('the execution to complete', async () => {
        const r = await api.get(`/api/executions/${id}`);
        return ['completed', 'failed'].includes(r.body.status) ? r.body : undefined;
      });
      expect(done.status).toBe('completed');
      expect(sink.received.filter((r) => r.path === '/write' && r.idempotencyKey === `${id}:write`)).toHaveLength(1);
      expect(sink.received.filter((r) => r.path === '/slow' && r.idempotencyKey === `${id}:wait`).length).toBeGreaterThanOrEqual(2);
      expect(done.outputs.out).toMatchObject({ status: 200, body: { ok: true, path: '/slow' } });
    } finally {
      second.process.kill('SIGTERM');
      await second.exited;
    }
  }, 120_000);

  it('SIGTERM drains: the running execution finishes before the worker exits', async () => {
    const pipeline = (await api.post('/api/pipelines', { name: 'drain', definition: definition(sink.url) })).body.id;
    await api.post(`/api/pipelines/${pipeline}/deploy`);
    const worker = await startWorker({ DATABASE_URL: dbUrl, ...QUEUE });
    const slow = sink.next('/slow');
    const { execution_id: id } = (await api.post('/api/execute', { pipeline_id: pipeline, async: true })).body;
    await slow;
    worker.process.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect((await api.get(`/api/executions/${id}`)).body.status).toBe('completed');
  });
});

describe('schedules', () => {
  let server: RunningServer;
  let api: Client;
  beforeAll(async () => {
    server = await startServer({ DATA_DIR: tempDir('schedule'), BOOTSTRAP_ORG_ID: ORG.id, BOOTSTRAP_API_KEY: ORG.key, ...QUEUE });
    api = client(server.url, ORG);
  });
  afterAll(() => server?.stop());

  // pg-boss schedules have one-minute resolution: this test waits for one minute boundary, and one more
  it('fire while the pipeline is deployed and stop after undeploy, or once a version whose trigger is no longer a schedule is deployed', async () => {
    // tick (schedule-trigger, every minute) ──▶ out
    const definition = {
      nodes: [
        { id: 'tick', type: 'schedule-trigger', config: { cron: '* * * * *', inputs: { source: 'test' } } },
        { id: 'out', type: 'pipeline-output' },
      ],
      connections: [{ source: 'tick', source_port: 'event', target: 'out', target_port: 'value' }],
    };
    const id = (await api.post('/api/pipelines', { name: 'every minute', definition })).body.id;
    const other = (await api.post('/api/pipelines', { name: 'every minute, then by hand', definition })).body.id;
    const scheduledOf = async (pipelineId: string) =>
      (await api.get(`/api/executions?pipeline_id=${pipelineId}&limit=100`)).body.executions as { id: string; trigger: string; created_at: string }[];
    const scheduled = () => scheduledOf(id);

    await api.post(`/api/pipelines/${id}/deploy`);
    await api.post(`/api/pipelines/${other}/deploy`);
    const runs = await waitFor(
      'a scheduled execution',
      async () => {
        const list = await scheduled();
        return list.length >= 1 ? list : undefined;
      },
      90,
    );
    expect(runs[0]!.trigger).toBe('schedule');
    const detail = await waitFor('it to finish', async () => {
      const r = (await api.get(`/api/executions/${runs[0]!.id}`)).body;
      return r.status === 'completed' ? r : undefined;
    });
    expect(detail.outputs.out).toMatchObject({ source: 'test', scheduled_at: expect.any(String) });

    await api.post(`/api/pipelines/${id}/undeploy`);
    // the other stays deployed, its schedule trigger replaced by a manual one in a version that is then deployed
    // (a save alone changes nothing that runs)
    const manual = { ...definition, nodes: [{ id: 'tick', type: 'manual-trigger', config: {} }, definition.nodes[1]] };
    expect((await api.put(`/api/pipelines/${other}`, { definition: manual })).status).toBe(200);
    expect((await api.post(`/api/pipelines/${other}/deploy`)).body).toMatchObject({ status: 'deployed', deployed_version: 2 });
    const stoppedAt = Date.now();
    const count = (await scheduled()).length;
    const otherCount = (await scheduledOf(other)).length;
    // past the next minute boundary, when a deployed pipeline would have fired again
    await new Promise((r) => setTimeout(r, 60_000 - (stoppedAt % 60_000) + 5_000));
    expect((await scheduled()).length).toBe(count);
    expect((await scheduledOf(other)).length).toBe(otherCount);
  }, 200_000);
});
