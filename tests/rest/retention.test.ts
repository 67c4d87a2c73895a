import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgWithKey, type Org } from '../support/accounts';
import { client, expectError, type ApiResponse } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { startServer, tempDir, type RunningServer } from '../support/server';
import { startWorker } from '../support/worker';

const ORG = { id: 'retention-org', key: 'cfk_retention_test_key_0123456789' };
const ADT = fs.readFileSync('/work/shared/data/hl7v2/messages/ADT-A01-01.hl7', 'utf8');

/* in (manual-trigger, message) ──▶ parse (hl7v2-parse) ──▶ fhir (hl7v2-to-fhir) ──▶ out (pipeline-output) */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
    { id: 'parse', type: 'hl7v2-parse' },
    { id: 'fhir', type: 'hl7v2-to-fhir' },
    { id: 'out', type: 'pipeline-output', config: { key: 'bundle' } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
    { source: 'fhir', source_port: 'bundle', target: 'out', target_port: 'value' },
  ],
};

/**
 * A server of one kind, and a way to change its database as time would (runs made older) and as the settings API
 * stores retention: on Postgres beside the running server; on PGlite, whose folder is one process's, with the
 * server stopped and started again.
 */
interface Target {
  server: RunningServer;
  change(statements: string[]): Promise<void>;
  close(): Promise<void>;
}

const SETUP = 'cfs_retention_setup_token_0123456789';
const base = {
  BOOTSTRAP_ORG_ID: ORG.id,
  BOOTSTRAP_API_KEY: ORG.key,
  BOOTSTRAP_SETUP_TOKEN: SETUP,
  QUEUE_CRON_SECONDS: '1',
  CONNECTOR_KEY: 'Y2xpbmZsb3ctdGVzdC1jb25uZWN0b3Ita2V5LTMyYiE=',
};

/**
 * The HTTP tests run the pruner themselves (POST /api/storage/prune): its schedule is set to once a year so that a
 * scheduled pass (one fell right after a PGlite restart and removed the runs before the request did) cannot race it.
 */
const byHand = { PRUNE_SCHEDULE: '0 0 1 1 *' };

async function postgresTarget(): Promise<Target> {
  const db = await createTestDatabase('pruner');
  const server = await startServer({ ...base, ...byHand, DATABASE_URL: db.url });
  const sqlClient = postgres(db.url, { max: 1, onnotice: () => {} });
  return {
    server,
    async change(statements) {
      for (const s of statements) await sqlClient.unsafe(s);
    },
    async close() {
      await server.stop();
      await sqlClient.end();
      await db.drop();
    },
  };
}

async function pgliteTarget(): Promise<Target> {
  const dir = tempDir('pruner');
  const target: Target = {
    server: await startServer({ ...base, ...byHand, DATA_DIR: dir }),
    async change(statements) {
      await target.server.stop();
      const db = new PGlite(dir);
      for (const s of statements) await db.exec(s);
      await db.close();
      target.server = await startServer({ ...base, ...byHand, DATA_DIR: dir });
    },
    async close() {
      await target.server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return target;
}

describe.each([
  ['pglite', pgliteTarget],
  ['postgres', postgresTarget],
] as const)('retention over HTTP (%s)', (_name, make) => {
  let target: Target;
  /** A read-only key of the organization, made by its admin in the browser. */
  let reader: Org;
  const api = () => client(target.server.url, ORG);
  beforeAll(async () => {
    target = await make();
    reader = await orgWithKey(target.server.url, 'retention-admin@example.org', ['read'], SETUP);
    expect(reader.id).toBe(ORG.id);
  }, 300_000);
  afterAll(() => target?.close());

  async function run(pipelineId: string): Promise<string> {
    const r = await api().post('/api/execute', { pipeline_id: pipelineId, inputs: { message: ADT }, test_mode: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe('completed');
    return r.body.execution_id;
  }

  it('a run past execution_days is gone from list, detail (404) and stats; one past payload_days is listed with its status and no payloads', async () => {
    const created = await api().post('/api/pipelines', { name: 'ADT feed', description: '', definition });
    expect(created.status).toBe(201);
    const p = created.body.id as string;
    const [expired, payloadless, fresh] = [await run(p), await run(p), await run(p)];
    const detailBefore = (await api().get(`/api/executions/${payloadless}`)).body;
    expect(detailBefore.payloads).toBe('kept');
    expect((await api().get(`/api/stats?pipeline_id=${p}`)).body.total_executions).toBe(3);

    await target.change([
      `update pipelines set data_settings = '{"payload_days": 7, "execution_days": 30}' where id = '${p}'`,
      `update executions set created_at = now() - interval '40 days' where id = '${expired}'`,
      `update executions set created_at = now() - interval '10 days' where id = '${payloadless}'`,
    ]);

    // a read-only key may look, not prune
    expectError(await client(target.server.url, reader).post('/api/storage/prune'), 403, 'FORBIDDEN');
    const pruned = await api().post('/api/storage/prune');
    expect(pruned.status, pruned.text).toBe(200);
    expect(pruned.body).toMatchObject({ status: 'completed', executions_deleted: 1, payloads_pruned: 1 });
    expect(pruned.body.bytes_freed).toBeGreaterThan(ADT.length);

    expectError(await api().get(`/api/executions/${expired}`), 404, 'EXECUTION_NOT_FOUND');
    const list = await api().get(`/api/executions?pipeline_id=${p}`);
    expect(list.body.total_count).toBe(2);
    expect(list.body.executions.map((e: { id: string; status: string; payloads: string }) => [e.id, e.status, e.payloads])).toEqual([
      [fresh, 'completed', 'kept'],
      [payloadless, 'completed', 'pruned'],
    ]);
    const detail = (await api().get(`/api/executions/${payloadless}`)).body;
    expect(detail).toMatchObject({ status: 'completed', payloads: 'pruned', inputs: null, outputs: null, duration_ms: detailBefore.duration_ms });
    expect(detail.nodes.map((n: { node_id: string; status: string; duration_ms: number }) => [n.node_id, n.status, n.duration_ms])).toEqual(
      detailBefore.nodes.map((n: { node_id: string; status: string; duration_ms: number }) => [n.node_id, n.status, n.duration_ms]),
    );
    expect(JSON.stringify(detail)).not.toContain('MSH|');
    expect((await api().get(`/api/executions/${fresh}`)).body.inputs).toEqual({ message: ADT });
    const stats = (await api().get(`/api/stats?pipeline_id=${p}`)).body;
    expect(stats).toMatchObject({ total_executions: 2, by_status: { completed: 2 }, success_rate: 1 });

    // what the dashboard shows, over REST: the pipeline's storage, its retention, what the pruner removed
    const storage: ApiResponse = await client(target.server.url, reader).get('/api/storage');
    expect(storage.status, storage.text).toBe(200);
    const row = storage.body.pipelines.find((x: { pipeline_id: string }) => x.pipeline_id === p);
    expect(row).toMatchObject({
      name: 'ADT feed',
      executions: 2,
      with_payloads: 1,
      payloads_pruned: 1,
      retention: { payload_days: 7, execution_days: 30, max_executions: null },
      removed_last_7_days: { executions_deleted: 1, payloads_pruned: 1, bytes_freed: pruned.body.bytes_freed },
    });
    expect(row.estimated_bytes).toBeGreaterThan(ADT.length);
    expect(storage.body.pruner.last_run).toMatchObject({ id: pruned.body.id, status: 'completed', executions_deleted: 1, payloads_pruned: 1 });
  }, 300_000);

  it('a production run of an `errors` pipeline (its node records kept in its own row) shows every node, counts in the stats, and goes past execution_days', async () => {
    const created = await api().post('/api/pipelines', {
      name: 'ADT feed, errors',
      description: '',
      definition,
      data_settings: { policy: 'errors', execution_days: 30 },
    });
    expect(created.status, created.text).toBe(201);
    const p = created.body.id as string;
    expect((await api().post(`/api/pipelines/${p}/deploy`)).status).toBe(200);
    const production = async () => {
      const r = await api().post('/api/execute', { pipeline_id: p, inputs: { message: ADT } });
      expect(r.body.status, r.text).toBe('completed');
      return r.body.execution_id as string;
    };
    const [old, recent] = [await production(), await production()];
    const before = (await api().get(`/api/executions/${old}`)).body;
    expect(before).toMatchObject({ payloads: 'not_kept', inputs: null, outputs: null });
    expect(before.nodes.map((n: { node_id: string; status: string }) => [n.node_id, n.status])).toEqual([
      ['in', 'completed'],
      ['parse', 'completed'],
      ['fhir', 'completed'],
      ['out', 'completed'],
    ]);
    for (const n of before.nodes) expect([typeof n.duration_ms, typeof n.started_at, typeof n.finished_at]).toEqual(['number', 'string', 'string']);
    expect((await api().get(`/api/stats?pipeline_id=${p}`)).body).toMatchObject({ total_executions: 2, by_status: { completed: 2 } });

    await target.change([`update executions set created_at = now() - interval '40 days' where id = '${old}'`]);
    const pruned = await api().post('/api/storage/prune');
    expect(pruned.status, pruned.text).toBe(200);
    expect(pruned.body).toMatchObject({ status: 'completed', executions_deleted: 1 });
    // the run's row with its node records: more than a bare row's ~130 bytes
    expect(pruned.body.bytes_freed).toBeGreaterThan(200);
    expectError(await api().get(`/api/executions/${old}`), 404, 'EXECUTION_NOT_FOUND');
    expect((await api().get(`/api/stats?pipeline_id=${p}`)).body).toMatchObject({ total_executions: 1, by_status: { completed: 1 } });
    expect((await api().get(`/api/executions/${recent}`)).body.nodes).toHaveLength(4);
  }, 300_000);
});

// Two processes on one Postgres (a server and a worker), each scheduling the pruner every minute: each minute's
// pass runs once, in one of them, and no two passes overlap (prune_runs records where and when each ran).
describe('the pruner across two processes (Postgres)', () => {
  let server: RunningServer;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sqlClient: postgres.Sql;
  beforeAll(async () => {
    db = await createTestDatabase('pruner');
    const env = { ...base, DATABASE_URL: db.url, PRUNE_SCHEDULE: '* * * * *' };
    server = await startServer(env);
    worker = await startWorker(env);
    sqlClient = postgres(db.url, { max: 1, onnotice: () => {} });
  }, 300_000);
  afterAll(async () => {
    worker?.process.kill('SIGTERM');
    await worker?.exited;
    await server?.stop();
    await sqlClient?.end();
    await db?.drop();
  });

  it('runs one pass per minute, never two at once', async () => {
    type Run = { job_id: string | null; runner: string; minute: string; started_at: Date; finished_at: Date | null; status: string };
    const runs = async () =>
      sqlClient<Run[]>`select job_id, runner, to_char(started_at at time zone 'UTC', 'HH24:MI') as minute, started_at, finished_at, status
        from prune_runs order by started_at`;
    // three passes: the first may be pg-boss catching up on an occurrence due while the processes started (it files
    // a missed occurrence and the current one), so the minutes are counted from the second on
    const deadline = Date.now() + 230_000;
    while ((await runs()).filter((r) => r.status !== 'running').length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
    const seen = await runs();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    const steady = seen.slice(1);
    expect(new Set(steady.map((r) => r.minute)).size, JSON.stringify(seen)).toBe(steady.length);
    // each pass is a job of the queue, run once
    expect(new Set(seen.map((r) => r.job_id)).size).toBe(seen.length);
    for (const r of seen) expect(r.job_id).toBeTruthy();
    // none overlaps another
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.started_at.getTime()).toBeGreaterThanOrEqual(seen[i - 1]!.finished_at!.getTime());
    // both processes were up and scheduling the whole time
    expect(worker.process.exitCode).toBeNull();
    expect(server.process.exitCode).toBeNull();
  }, 300_000);
});
