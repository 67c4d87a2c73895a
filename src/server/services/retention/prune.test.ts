import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/server/db/rows';
import { migratedPostgres } from '../../../../tests/support/databases';
import { createRuntime, type Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { autovacuumOff, prune } from './prune';

const adt = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
const DAY = 86_400_000;

/* in (manual-trigger, message) ──▶ parse (hl7v2-parse) ──▶ fhir (hl7v2-to-fhir) ──▶ out (pipeline-output) */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 0, y: 0 } },
    { id: 'fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'bundle' }, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'fhir', target_port: 'message' },
    { source: 'fhir', source_port: 'bundle', target: 'out', target_port: 'value' },
  ],
};

type Caller = Awaited<ReturnType<typeof orgCaller>>;

describe.each(['postgres', 'pglite'] as const)('the pruner (%s)', (kind) => {
  let rt: Runtime;
  let close: () => Promise<void>;
  beforeAll(async () => {
    if (kind === 'postgres') {
      const pg = await migratedPostgres('pruner');
      rt = await createRuntime(pg.database, { rateLimitPerWindow: 1_000_000 });
      close = pg.close;
    } else {
      rt = await memoryRuntime();
      close = () => rt.database.close();
    }
  }, 60_000);
  afterAll(() => close?.());

  /** A pipeline of the organization, with its retention overrides (what the settings API stores). */
  async function pipeline(a: Caller, settings: Record<string, unknown> = {}) {
    const p = await a.pipelines.create({ name: `feed ${Math.random().toString(36).slice(2, 6)}`, description: '', definition });
    await rt.db.execute(sql`update pipelines set data_settings = ${JSON.stringify(settings)}::jsonb where id = ${p.id}::uuid`);
    return p.id;
  }
  /** A real run of the feed, made `days` old. */
  async function run(a: Caller, pipelineId: string, days: number) {
    const r = await a.executions.execute({ pipeline_id: pipelineId, inputs: { message: adt }, test_mode: true, async: false });
    expect(r.status).toBe('completed');
    await age(r.execution_id, days);
    return r.execution_id;
  }
  async function age(executionId: string, days: number) {
    const at = new Date(Date.now() - days * DAY).toISOString();
    await rt.db.execute(sql`update executions set created_at = ${at}::timestamptz, started_at = ${at}::timestamptz where id = ${executionId}::uuid`);
  }
  const notFound = { cause: { code: 'EXECUTION_NOT_FOUND' } };

  it('removes payloads after payload_days and keeps the run listed with its status, per-node status and timings; the stats stay', async () => {
    const a = await orgCaller(rt, `org-payloads-${kind}`);
    const p = await pipeline(a, { payload_days: 7 });
    const old = await run(a, p, 10);
    const recent = await run(a, p, 3);
    const before = await a.executions.get({ id: old });
    const statsBefore = await a.executions.stats({ pipeline_id: p });

    const result = await prune(rt.db, { batchSize: 1, restRatio: 0 });
    expect(result.status).toBe('completed');
    const after = await a.executions.get({ id: old });
    expect(after).toMatchObject({ status: 'completed', payloads: 'pruned', inputs: null, outputs: null, duration_ms: before.duration_ms });
    expect(after.nodes.map((n) => [n.node_id, n.status, n.duration_ms, n.started_at])).toEqual(
      before.nodes.map((n) => [n.node_id, n.status, n.duration_ms, n.started_at]),
    );
    for (const n of after.nodes) expect([n.inputs, n.outputs, n.logs]).toEqual([null, null, []]);
    expect(JSON.stringify(after)).not.toContain('MSH|');
    // the newer run is whole
    const kept = await a.executions.get({ id: recent });
    expect(kept.payloads).toBe('kept');
    expect(kept.inputs).toEqual({ message: adt });
    expect((kept.outputs as { bundle: { resourceType: string } }).bundle.resourceType).toBe('Bundle');
    const list = await a.executions.list({ pipeline_id: p, limit: 10, offset: 0 });
    expect(list.executions.map((e) => [e.id, e.status, e.payloads])).toEqual([
      [recent, 'completed', 'kept'],
      [old, 'completed', 'pruned'],
    ]);
    expect(await a.executions.stats({ pipeline_id: p })).toEqual(statsBefore);
    const own = rowsOf<{ payloads_pruned: number; bytes_freed: number | string }>(
      await rt.db.execute(sql`select payloads_pruned, bytes_freed from prune_counts where run_id = ${result.id}::uuid and pipeline_id = ${p}::uuid`),
    );
    expect(own).toHaveLength(1);
    expect(own[0]!.payloads_pruned).toBe(1);
    // at least the HL7 message and the bundle, which are kilobytes, were removed
    expect(Number(own[0]!.bytes_freed)).toBeGreaterThan(adt.length);

    // the dashboard's storage: the pipeline's runs by what they hold, their size, its retention, what the pruner removed
    const storage = await a.storage.report({});
    const mine = storage.pipelines.find((x) => x.pipeline_id === p)!;
    expect(mine).toMatchObject({ executions: 2, with_payloads: 1, payloads_pruned: 1, payloads_not_kept: 0 });
    expect(mine.retention).toEqual({ payload_days: 7, execution_days: 365, max_executions: null });
    expect(mine.removed_last_7_days).toEqual({ executions_deleted: 0, payloads_pruned: 1, bytes_freed: Number(own[0]!.bytes_freed) });
    // a run with its payloads weighs more than one without, and both count
    expect(mine.estimated_bytes).toBeGreaterThan(adt.length);
    expect(storage.pruner.last_run).toMatchObject({ id: result.id, status: 'completed', payloads_pruned: 1 });
  });

  it('deletes runs after execution_days (the organization’s, when the pipeline sets none): gone from list, detail and stats', async () => {
    const a = await orgCaller(rt, `org-expiry-${kind}`);
    await rt.db.execute(sql`update organizations set data_settings = '{"execution_days": 30, "payload_days": 10}' where id = ${`org-expiry-${kind}`}`);
    // null inherits, as in resolveDataSettings
    const p = await pipeline(a, { execution_days: null });
    const longer = await pipeline(a, { execution_days: 60 });
    const gone = await run(a, p, 40);
    const stays = await run(a, p, 20);
    const kept = await run(a, longer, 40);
    expect((await a.executions.stats({})).total_executions).toBe(3);

    await prune(rt.db, { restRatio: 0 });
    await expect(a.executions.get({ id: gone })).rejects.toMatchObject(notFound);
    const listed = (await a.executions.list({ limit: 10, offset: 0 })).executions.map((e) => [e.id, e.payloads]);
    expect(listed).toEqual([
      [stays, 'pruned'],
      [kept, 'pruned'],
    ]);
    const stats = await a.executions.stats({});
    expect(stats.total_executions).toBe(2);
    expect(stats.by_status).toEqual({ completed: 2 });
    const nodes = rowsOf<{ n: number }>(await rt.db.execute(sql`select count(*)::int as n from execution_nodes where execution_id = ${gone}::uuid`));
    expect(nodes[0]!.n).toBe(0);
  });

  it('keeps the newest max_executions finished runs of a pipeline, in batches', async () => {
    const a = await orgCaller(rt, `org-count-${kind}`);
    const p = await pipeline(a, { max_executions: 2 });
    const runs = [];
    for (const days of [5, 4, 3, 2, 1]) runs.push(await run(a, p, days));
    const result = await prune(rt.db, { batchSize: 2, restRatio: 0 });
    expect(result.executions_deleted).toBeGreaterThanOrEqual(3);
    const left = (await a.executions.list({ pipeline_id: p, limit: 10, offset: 0 })).executions.map((e) => e.id);
    expect(left).toEqual([runs[4], runs[3]]);
  });

  it('never touches a running run, a live step session’s run, or the run a running retry started from; their turn comes once they end', async () => {
    const a = await orgCaller(rt, `org-busy-${kind}`);
    const p = await pipeline(a, { execution_days: 1, payload_days: 1 });
    const source = await run(a, p, 5);
    // a retry of it that is still running (a worker holds it)
    const [retry] = rowsOf<{ id: string }>(
      await rt.db.execute(sql`insert into executions (org_id, pipeline_id, pipeline_version, status, trigger, retry_of, inputs, created_at)
        values (${`org-busy-${kind}`}, ${p}::uuid, 1, 'running', 'retry', ${source}::uuid, '{}', now() - interval '5 days') returning id`),
    );
    const queued = rowsOf<{ id: string }>(
      await rt.db.execute(sql`insert into executions (org_id, pipeline_id, pipeline_version, status, trigger, inputs, created_at)
        values (${`org-busy-${kind}`}, ${p}::uuid, 1, 'queued', 'async', '{"message": "MSH|queued"}', now() - interval '5 days') returning id`),
    )[0]!.id;
    // a step session that ran `in` and `parse` and waits at `fhir`
    const step = await a.executions.stepStart({ pipeline_id: p, inputs: { message: adt }, test_mode: true });
    await a.executions.stepAdvance({ sessionId: step.session_id });
    expect((await a.executions.stepAdvance({ sessionId: step.session_id })).current_node).toBe('fhir');
    await age(step.execution_id, 5);

    await prune(rt.db, { restRatio: 0 });
    expect(await a.executions.get({ id: source })).toMatchObject({ status: 'completed', payloads: 'kept', inputs: { message: adt } });
    expect(await a.executions.get({ id: retry!.id })).toMatchObject({ status: 'running' });
    expect(await a.executions.get({ id: queued })).toMatchObject({ status: 'queued', inputs: { message: 'MSH|queued' } });
    const stepped = await a.executions.get({ id: step.execution_id });
    expect(stepped.status).toBe('running');
    expect(stepped.nodes.find((n) => n.node_id === 'parse')?.inputs).toEqual({ text: adt });
    const next = await a.executions.stepAdvance({ sessionId: step.session_id });
    expect(next.status).toBe('waiting');

    // the retry ends: its source is no longer in use, and goes (the retry, 5 days old, with it)
    await rt.db.execute(sql`update executions set status = 'failed', finished_at = now() where id = ${retry!.id}::uuid`);
    await prune(rt.db, { restRatio: 0 });
    await expect(a.executions.get({ id: source })).rejects.toMatchObject(notFound);
    await expect(a.executions.get({ id: retry!.id })).rejects.toMatchObject(notFound);
    expect((await a.executions.get({ id: step.execution_id })).status).toBe('running');
  });

  it('runs of a deleted pipeline expire under the organization’s retention', async () => {
    const orgId = `org-deleted-${kind}`;
    const a = await orgCaller(rt, orgId);
    await rt.db.execute(sql`update organizations set data_settings = '{"execution_days": 3}' where id = ${orgId}`);
    const p = await pipeline(a, { execution_days: 365 });
    const old = await run(a, p, 10);
    const fresh = await run(a, p, 1);
    await a.pipelines.remove({ id: p });
    await prune(rt.db, { restRatio: 0 });
    await expect(a.executions.get({ id: old })).rejects.toMatchObject(notFound);
    expect((await a.executions.get({ id: fresh })).status).toBe('completed');
  });

  it('stops at its time budget (partial) and the next pass goes on; what each pass removed is recorded', async () => {
    const a = await orgCaller(rt, `org-budget-${kind}`);
    const p = await pipeline(a, { execution_days: 2 });
    await run(a, p, 5);
    await run(a, p, 6);
    const first = await prune(rt.db, { budgetMs: 0 });
    expect(first).toMatchObject({ status: 'partial', executions_deleted: 0 });
    const second = await prune(rt.db, { restRatio: 0 });
    expect(second.status).toBe('completed');
    expect(second.executions_deleted).toBeGreaterThanOrEqual(2);
    const runs = rowsOf<{ id: string; status: string; executions_deleted: number }>(
      await rt.db.execute(sql`select id, status, executions_deleted from prune_runs where id in (${first.id}::uuid, ${second.id}::uuid) order by started_at`),
    );
    expect(runs).toEqual([
      { id: first.id, status: 'partial', executions_deleted: 0 },
      { id: second.id, status: 'completed', executions_deleted: second.executions_deleted },
    ]);
    expect((await a.executions.list({ pipeline_id: p, limit: 10, offset: 0 })).total_count).toBe(0);
  });

  it.runIf(kind === 'postgres')('vacuums after a pass that removed rows where autovacuum is off, so the space is used again', async () => {
    const lastVacuum = async () =>
      rowsOf<{ at: string | null }>(await rt.db.execute(sql`select last_vacuum::text as at from pg_stat_user_tables where relname = 'executions'`))[0]?.at;
    const a = await orgCaller(rt, `org-vacuum-${kind}`);
    const p = await pipeline(a, { execution_days: 1 });
    // this machine's Postgres runs with autovacuum off; where it is on, turning it off on the table is the same case
    const serverOff = rowsOf<{ autovacuum: string }>(await rt.db.execute(sql`show autovacuum`))[0]?.autovacuum === 'off';
    expect(await autovacuumOff(rt.db)).toBe(serverOff);
    if (!serverOff) {
      await run(a, p, 3);
      const before = await lastVacuum();
      expect((await prune(rt.db, { restRatio: 0, vacuum: 'if-off' })).executions_deleted).toBeGreaterThanOrEqual(1);
      expect(await lastVacuum()).toBe(before); // left to autovacuum
      await rt.db.execute(sql`alter table executions set (autovacuum_enabled = false)`);
    }
    try {
      expect(await autovacuumOff(rt.db)).toBe(true);
      await run(a, p, 3);
      const before = await lastVacuum();
      expect((await prune(rt.db, { restRatio: 0, vacuum: 'if-off' })).executions_deleted).toBeGreaterThanOrEqual(1);
      // the statistics collector reports the VACUUM a moment later
      await expect.poll(lastVacuum, { timeout: 5_000 }).not.toBe(before);
    } finally {
      if (!serverOff) await rt.db.execute(sql`alter table executions reset (autovacuum_enabled)`);
    }
  });
});
