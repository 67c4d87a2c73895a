import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, type Client } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { startServer, type RunningServer } from '../support/server';
import { startWorker } from '../support/worker';

const ORG = { id: 'concurrency-org', key: 'cfk_concurrency_test_key_0123456789' };

// in ──▶ out
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger' },
    { id: 'out', type: 'pipeline-output' },
  ],
  connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
};

/*
 * Two web processes share one Postgres and no worker runs yet, so asynchronous executions stay queued
 * and hold their slots: the organization's 100 slots are handed out exactly once between the two.
 */
describe('at most 100 concurrent executions per organization, across processes (Postgres)', () => {
  let webs: RunningServer[] = [];
  let apis: Client[] = [];
  let dbUrl: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestDatabase('concurrency');
    dbUrl = db.url;
    drop = db.drop;
    const env = { DATABASE_URL: dbUrl, WORKER_IN_SERVER: 'false', BOOTSTRAP_ORG_ID: ORG.id, BOOTSTRAP_API_KEY: ORG.key, QUEUE_SUPERVISE_SECONDS: '1' };
    webs = await Promise.all([startServer(env), startServer(env)]);
    apis = webs.map((w) => client(w.url, ORG));
  });
  afterAll(async () => {
    await Promise.all(webs.map((w) => w.stop()));
    await drop?.();
  });

  it('admits exactly 100 between two servers, refuses the rest with 429 CONCURRENCY_LIMIT, and admits again once they finish', async () => {
    const [a, b] = apis as [Client, Client];
    const pipeline = (await a.post('/api/pipelines', { name: 'queued', definition })).body.id;
    await a.post(`/api/pipelines/${pipeline}/deploy`);

    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, i) => (i % 2 ? a : b).post('/api/execute', { pipeline_id: pipeline, inputs: { i }, async: true })),
    );
    const accepted = answers.filter((r) => r.status === 202 || r.status === 200);
    const refused = answers.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(100);
    expect(refused).toHaveLength(30);
    for (const r of refused) expectError(r, 429, 'CONCURRENCY_LIMIT');
    expect((await a.get(`/api/executions?pipeline_id=${pipeline}&limit=1`)).body.total_count).toBe(100);

    // a synchronous run needs a slot too; a refused one leaves no row behind
    expectError(await b.post('/api/execute', { pipeline_id: pipeline, inputs: {} }), 429, 'CONCURRENCY_LIMIT');
    expect((await a.get(`/api/executions?pipeline_id=${pipeline}&limit=1`)).body.total_count).toBe(100);

    const worker = await startWorker({ DATABASE_URL: dbUrl });
    try {
      const deadline = Date.now() + 60_000;
      let completed = 0;
      while (Date.now() < deadline && completed < 100) {
        completed = (await a.get(`/api/executions?pipeline_id=${pipeline}&status=completed&limit=1`)).body.total_count;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(completed).toBe(100);
    } finally {
      worker.process.kill('SIGTERM');
      await worker.exited;
    }
    const again = await b.post('/api/execute', { pipeline_id: pipeline, inputs: { after: true } });
    expect(again.body).toMatchObject({ status: 'completed', outputs: { out: { after: true } } });

    // the slots the finished executions held are free again, and still handed out exactly once
    const second = await Promise.all(
      Array.from({ length: 130 }, (_, i) => (i % 2 ? a : b).post('/api/execute', { pipeline_id: pipeline, inputs: { i }, async: true })),
    );
    expect(second.filter((r) => r.status === 202 || r.status === 200)).toHaveLength(100);
    expect(second.filter((r) => r.status === 429)).toHaveLength(30);
  }, 120_000);
});
