import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgWithKey, trpc } from '../support/accounts';
import { client, expectError } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { freePort, startServer, type RunningServer } from '../support/server';
import { startWorker } from '../support/worker';

const LIMIT = 60;
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger' },
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
};

const ADT = fs.readFileSync(
  '/work/shared/data/hl7v2/messages/' +
    fs
      .readdirSync('/work/shared/data/hl7v2/messages')
      .filter((f) => f.startsWith('ADT-'))
      .sort()[0]!,
  'utf8',
);

/** Whether a TCP connection to the port is accepted (and then closed at once). */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** Sends the ADT message on `n` connections (handed to the processes in turn); each must be ACKed AA. */
async function sendAdts(port: number, n: number) {
  for (let i = 0; i < n; i++) {
    const c = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
    try {
      const ack = await c.sendAndWait(Hl7Message.parse(ADT), { timeoutMs: 30_000 });
      expect(ack.getSegment('MSA')?.getField(1)?.toString()).toBe('AA');
    } finally {
      await c.close();
    }
  }
}

/** The server processes a cluster's primary runs. */
const children = (pid: number) =>
  execFileSync('sh', ['-c', `pgrep -P ${pid} || true`])
    .toString()
    .split('\n')
    .filter(Boolean);

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

  it('counts the rate limit across both processes exactly, and stops a revoked key in every process within 1 s', async () => {
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
    // keys are cached per process; a revocation reaches the others at once (NOTIFY), at the latest within 1 s (the documented bound)
    await new Promise((r) => setTimeout(r, 1000));
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

  it('opens the MLLP port of a deployed pipeline in every process, a replaced process too, and closes it in every process on undeploy', async () => {
    const org = await orgWithKey(server.url, 'cluster-mllp@example.org');
    const api = client(server.url, org);
    const port = await freePort();
    const mllp = {
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port } },
        { id: 'out', type: 'pipeline-output', config: { key: 'message' } },
      ],
      connections: [{ id: 'c1', source: 'in', source_port: 'message', target: 'out', target_port: 'value' }],
    };
    const pipeline = (await api.post('/api/pipelines', { name: 'feed', definition: mllp })).body.id;
    expect((await api.post(`/api/pipelines/${pipeline}/deploy`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    await sendAdts(port, 3);
    // one process dies: the primary starts another, which opens the deployed pipeline's port as it starts
    const [victim] = children(server.process.pid!);
    process.kill(Number(victim), 'SIGKILL');
    for (let i = 0; i < 100 && !(children(server.process.pid!).length === 2 && !children(server.process.pid!).includes(victim!)); i++)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 4000)); // the new process prepares Next and its listeners
    await sendAdts(port, 6);
    // undeploy reaches one process; the other follows
    expect((await api.post(`/api/pipelines/${pipeline}/undeploy`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    // no process keeps the port: every connection is refused
    for (let i = 0; i < 6; i++) expect(await accepts(port)).toBe(false);
  });
});
