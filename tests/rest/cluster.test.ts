import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgWithKey, trpc } from '../support/accounts';
import { client, expectError } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { startServer, type RunningServer } from '../support/server';
import { startWorker } from '../support/worker';

const LIMIT = 60;
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger' },
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
};

/** The server processes a cluster's primary runs. */
const children = (pid: number) => execFileSync('sh', ['-c', `pgrep -P ${pid} || true`]).toString().split('\n').filter(Boolean);

// `npm start` on Postgres with WEB_CONCURRENCY=2 (two server processes sharing the port) and a separate worker
// process: the limits hold across them exactly, and a revoked key stops working in every process at once.
describe('two server processes on one port and a worker (Postgres)', () => {
  let server: RunningServer;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  let dbUrl: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestDatabase('cluster');
    dbUrl = db.url;
    drop = db.drop;
    server = await startServer({ DATABASE_URL: dbUrl, WEB_CONCURRENCY: '2', WORKER_IN_SERVER: 'false', RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => {
    worker?.process.kill('SIGTERM');
    expect(await server?.stop()).toBe(0);
    await drop?.();
  });

  it('runs two processes that prepared the database once (one setup link printed)', () => {
    expect(children(server.process.pid!)).toHaveLength(2);
    expect(server.output().match(/sign-up\?setup=/g)).toHaveLength(1);
  });

  it('counts the rate limit across both processes exactly, and stops a revoked key in every process at once', async () => {
    const org = await orgWithKey(server.url, 'cluster-admin@example.org');
    const api = client(server.url, org);
    // keep-alive connections are spread over the processes; many at once reach both
    const answers = await Promise.all(Array.from({ length: LIMIT + 20 }, () => api.get('/api/pipelines')));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(20);

    const other = await orgWithKey(server.url, 'cluster-other@example.org');
    const made = await trpc<{ id: string; key: string }>(server.url, other.cookie, 'keys.create', { name: 'short-lived', scopes: ['read'] });
    const shortLived = client(server.url, { id: other.id, key: made.key });
    expect((await Promise.all(Array.from({ length: 8 }, () => shortLived.get('/api/pipelines')))).every((r) => r.status === 200)).toBe(true);
    await trpc(server.url, other.cookie, 'keys.revoke', { id: made.id });
    for (const r of await Promise.all(Array.from({ length: 8 }, () => shortLived.get('/api/pipelines')))) expectError(r, 401, 'UNAUTHENTICATED');
  });

  it('queues executions from both processes for the separate worker, which runs every one of them once', async () => {
    const org = await orgWithKey(server.url, 'cluster-runs@example.org');
    const api = client(server.url, org);
    const pipeline = (await api.post('/api/pipelines', { name: 'queued', definition })).body.id;
    await api.post(`/api/pipelines/${pipeline}/deploy`);
    const first = await Promise.all(Array.from({ length: 50 }, (_, i) => api.post('/api/execute', { pipeline_id: pipeline, inputs: { i }, async: true })));
    expect(first.filter((r) => r.status !== 200 || r.body.status !== 'running')).toEqual([]);
    const total = await api.get(`/api/executions?pipeline_id=${pipeline}&limit=1`);
    expect(total.body.total_count).toBe(50);
    worker = await startWorker({ DATABASE_URL: dbUrl });
    const deadline = Date.now() + 60_000;
    let completed = 0;
    while (Date.now() < deadline && completed < 50) {
      await new Promise((r) => setTimeout(r, 500));
      completed = (await api.get(`/api/executions?pipeline_id=${pipeline}&status=completed&limit=1`)).body.total_count;
    }
    expect(completed).toBe(50);
  });
});
