import fs from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client, pollExecution } from '../support/client';
import { freePort } from '../support/server';

/*
 * What a run keeps (issue 27): the pipeline's data policy, over its organization's default.
 *
 * in (manual-trigger, field patient: json) ──patient──▶ name (jsonata: family name, or $error when refused) ──▶ out ("family")
 */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } } },
    { id: 'name', type: 'jsonata-transform', config: { expression: 'refuse ? $error("refused on purpose") : name[0].family' } },
    { id: 'out', type: 'pipeline-output', config: { key: 'family' } },
  ],
  connections: [
    { id: 'c1', source: 'in', source_port: 'patient', target: 'name', target_port: 'input' },
    { id: 'c2', source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
  ],
};

const FAMILY = 'Vandervort-Policy';
const patient = (refuse = false) => ({ resourceType: 'Patient', refuse, name: [{ family: FAMILY, given: ['Ana'] }] });
const DIR = '/work/shared/data/hl7v2/messages';
const ADT = fs.readFileSync(
  path.join(
    DIR,
    fs.readdirSync(DIR).find((f) => f.startsWith('ADT-'))!,
  ),
  'utf8',
);

/** What the API shows of a run's payloads: the execution's input and outputs, each node's inputs and outputs. */
function payloadsOf(detail: any) {
  return { inputs: detail.inputs, outputs: detail.outputs, nodes: detail.nodes.map((n: any) => [n.node_id, n.payloads, n.inputs, n.outputs]) };
}

describe.each(inject('targets'))('execution data policy on $name', (target) => {
  let api: Client;
  let orgId: string;
  let sql: postgres.Sql | undefined;
  /**
   * On Postgres: what the database holds of a run (its JSON, to look for the patient's name — what is stored deflated,
   * inflated; its bytes as stored).
   */
  const stored = async (id: string) => {
    if (!sql) return undefined;
    const inflated = (z: Uint8Array | null) => (z ? inflateRawSync(z).toString('utf8') : '');
    const [e] = await sql`select inputs::text as inputs, inputs_z, outputs::text as outputs,
      pg_column_size(inputs) + coalesce(pg_column_size(inputs_z), 0) + coalesce(pg_column_size(outputs), 0) as bytes from executions where id = ${id}`;
    const nodes = await sql`select inputs::text || outputs::text || coalesce(emit::text, '') as text, payloads_z,
      pg_column_size(inputs) + pg_column_size(outputs) + coalesce(pg_column_size(emit), 0) + coalesce(pg_column_size(payloads_z), 0) as bytes
      from execution_nodes where execution_id = ${id}`;
    const text = [e!.inputs, inflated(e!.inputs_z), e!.outputs ?? '', ...nodes.map((n) => `${n.text}${inflated(n.payloads_z)}`)].join('');
    return { text, bytes: Number(e!.bytes) + nodes.reduce((b, n) => b + Number(n.bytes), 0) };
  };
  /** On Postgres: how many execution_nodes rows a run has. */
  const nodeRows = async (id: string) => Number((await sql!`select count(*) as n from execution_nodes where execution_id = ${id}`)[0]!.n);
  const create = async (name: string, data_settings?: Record<string, unknown>) => {
    const r = await api.post('/api/pipelines', { name, definition, ...(data_settings ? { data_settings } : {}) });
    expect(r.status, r.text).toBe(201);
    expect((await api.post(`/api/pipelines/${r.body.id}/deploy`)).status).toBe(200);
    return r.body.id as string;
  };

  beforeAll(async () => {
    const org = await orgWithKey(target.url, `policy-${target.name}-${Date.now()}@example.org`);
    orgId = org.id;
    api = client(target.url, org);
    if (target.name === 'postgres') sql = postgres(inject('postgresUrl'), { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
  });

  it('settings: a pipeline inherits its organization defaults value by value, overrides some, and bad input changes nothing', async () => {
    const id = await create('inherits');
    const first = (await api.get(`/api/pipelines/${id}`)).body.metadata.data_settings;
    expect(first).toEqual({
      effective: { policy: 'full', payload_days: 30, execution_days: 365, max_executions: null },
      overrides: { policy: null, payload_days: null, execution_days: null, max_executions: null },
      inherited: ['policy', 'payload_days', 'execution_days', 'max_executions'],
      defaults: { policy: 'full', payload_days: 30, execution_days: 365, max_executions: null },
    });
    const org = await api.put('/api/organization/data-settings', { policy: 'errors', payload_days: 7 });
    expect(org.status, org.text).toBe(200);
    expect(org.body).toMatchObject({ effective: { policy: 'errors', payload_days: 7, execution_days: 365 }, inherited: ['execution_days', 'max_executions'] });
    expect((await api.get('/api/organization/data-settings')).body).toEqual(org.body);

    let got = (await api.get(`/api/pipelines/${id}`)).body;
    expect(got.metadata.data_settings).toMatchObject({ effective: { policy: 'errors', payload_days: 7 }, defaults: { policy: 'errors', payload_days: 7 } });
    // the pipeline's own value wins; a settings change alone makes no new version
    const put = await api.put(`/api/pipelines/${id}`, { data_settings: { policy: 'metadata', max_executions: 500 } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.version).toBe(1);
    got = (await api.get(`/api/pipelines/${id}`)).body;
    expect(got.metadata.data_settings).toMatchObject({
      effective: { policy: 'metadata', payload_days: 7, execution_days: 365, max_executions: 500 },
      overrides: { policy: 'metadata', max_executions: 500, payload_days: null },
      inherited: ['payload_days', 'execution_days'],
    });
    // null inherits again; keys left out stay
    await api.put(`/api/pipelines/${id}`, { data_settings: { policy: null } });
    got = (await api.get(`/api/pipelines/${id}`)).body;
    expect(got.metadata.data_settings.effective).toMatchObject({ policy: 'errors', max_executions: 500 });

    for (const bad of [{ policy: 'some' }, { payload_days: 0 }, { payload_days: 1.5 }, { polcy: 'full' }]) {
      expectError(await api.put(`/api/pipelines/${id}`, { data_settings: bad }), 400, 'VALIDATION_FAILED');
      expectError(await api.put('/api/organization/data-settings', bad), 400, 'VALIDATION_FAILED');
    }
    expect((await api.get(`/api/pipelines/${id}`)).body.metadata.data_settings).toEqual(got.metadata.data_settings);
    expect((await api.get('/api/organization/data-settings')).body).toEqual(org.body);

    // another organization sees neither the pipeline nor these defaults
    const other = client(target.url, target.orgB);
    expectError(await other.put(`/api/pipelines/${id}`, { data_settings: { policy: 'full' } }), 404, 'PIPELINE_NOT_FOUND');
    expect((await other.get('/api/organization/data-settings')).body.effective.policy).not.toBe('errors');
    // the defaults are an administrator's to change
    const reader = await orgWithKey(target.url, `policy-reader-${target.name}-${Date.now()}@example.org`, ['read', 'write', 'execute']);
    expectError(await client(target.url, reader).put('/api/organization/data-settings', { policy: 'metadata' }), 403, 'FORBIDDEN');
    await api.put('/api/organization/data-settings', { policy: null, payload_days: null });
  });

  it('errors: a successful run keeps no payload, a failed one keeps them all and can be retried', async () => {
    const full = await create('full', { policy: 'full' });
    const errors = await create('errors', { policy: 'errors' });

    const keptRun = await api.post('/api/execute', { pipeline_id: full, inputs: { patient: patient() } });
    const ok = await api.post('/api/execute', { pipeline_id: errors, inputs: { patient: patient() } });
    expect(ok.body).toMatchObject({ status: 'completed', outputs: { family: FAMILY } }); // the caller still gets its answer
    const kept = (await api.get(`/api/executions/${keptRun.body.execution_id}`)).body;
    expect(kept).toMatchObject({ payloads: 'kept', data_policy: 'full', inputs: { patient: patient() }, outputs: { family: FAMILY } });
    const detail = (await api.get(`/api/executions/${ok.body.execution_id}`)).body;
    expect(detail).toMatchObject({ status: 'completed', data_policy: 'errors', payloads: 'not_kept', inputs: null, outputs: null });
    expect(payloadsOf(detail).nodes).toEqual([
      ['in', 'not_kept', null, null],
      ['name', 'not_kept', null, null],
      ['out', 'not_kept', null, null],
    ]);
    // status, timings and sizes stay
    expect(detail.nodes.map((n: any) => [n.node_type, n.status])).toEqual([
      ['manual-trigger', 'completed'],
      ['jsonata-transform', 'completed'],
      ['pipeline-output', 'completed'],
    ]);
    for (const n of detail.nodes) {
      expect(n.duration_ms).toEqual(expect.any(Number));
      expect(Date.parse(n.finished_at)).toBeGreaterThanOrEqual(Date.parse(n.started_at));
    }
    expect(detail.input_bytes).toBe(kept.input_bytes);
    expect(detail.output_bytes).toBe(kept.output_bytes);
    expect(detail.stored_bytes).toBeLessThan(kept.stored_bytes);
    if (sql) {
      const [keptDb, notKeptDb] = [await stored(kept.id), await stored(detail.id)];
      expect(keptDb!.text).toContain(FAMILY);
      expect(notKeptDb!.text).not.toContain(FAMILY);
      expect(notKeptDb!.bytes).toBeLessThan(keptDb!.bytes);
      // its node records are stored in its executions row, not as rows of their own (issue 27: bytes per feed message)
      expect([await nodeRows(kept.id), await nodeRows(detail.id)]).toEqual([3, 0]);
    }
    expectError(await api.post('/api/execute/retry', { execution_id: detail.id, node_id: 'name', inputs: {} }), 409, 'PAYLOADS_NOT_KEPT');

    const failed = await api.post('/api/execute', { pipeline_id: errors, inputs: { patient: patient(true) } });
    expect(failed.body.status).toBe('failed');
    const f = (await api.get(`/api/executions/${failed.body.execution_id}`)).body;
    expect(f).toMatchObject({ data_policy: 'errors', payloads: 'kept', inputs: { patient: patient(true) } });
    expect(f.nodes.find((n: any) => n.node_id === 'name')).toMatchObject({ payloads: 'kept', status: 'failed', inputs: { input: patient(true) } });
    if (sql) expect((await stored(f.id))!.text).toContain(FAMILY);
    if (sql) expect(await nodeRows(f.id)).toBe(3); // a failed run keeps its rows
    // retried from the failed node with its input fixed: the stored upstream output is used
    const retry = await api.post('/api/execute/retry', { execution_id: f.id, node_id: 'name', inputs: { input: patient() } });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toMatchObject({ status: 'completed', outputs: { family: FAMILY }, retry_of: f.id });
    // the retry is a run of its own under the same policy: it succeeded, so it keeps nothing
    expect((await api.get(`/api/executions/${retry.body.execution_id}`)).body).toMatchObject({ payloads: 'not_kept', inputs: null });
    // the stats count every run, and the failure by the node type it came from
    const stats = (await api.get(`/api/stats?pipeline_id=${errors}`)).body;
    expect(stats).toMatchObject({ total_executions: 3, by_status: { completed: 2, failed: 1 } });
    expect(stats.error_distribution).toEqual([{ node_type: 'jsonata-transform', count: 1, codes: { TRANSFORM_FAILED: 1 } }]);
  });

  it('errors, run by a worker: a failed async run keeps its payloads, a successful one none', async () => {
    const errors = await create('errors async', { policy: 'errors' });
    const ok = await api.post('/api/execute', { pipeline_id: errors, inputs: { patient: patient() }, async: true });
    const bad = await api.post('/api/execute', { pipeline_id: errors, inputs: { patient: patient(true) }, async: true });
    const [a, b] = [await pollExecution(api, ok.body.execution_id), await pollExecution(api, bad.body.execution_id)];
    expect(a).toMatchObject({ status: 'completed', payloads: 'not_kept', inputs: null, outputs: null });
    expect(b).toMatchObject({ status: 'failed', payloads: 'kept', inputs: { patient: patient(true) } });
    expect(b.nodes.find((n: any) => n.node_id === 'in').outputs).toMatchObject({ patient: patient(true) });
    if (sql) expect((await stored(a.id))!.text).not.toContain(FAMILY);
    expect(a.nodes.map((n: any) => [n.node_id, n.status, typeof n.duration_ms])).toEqual([
      ['in', 'completed', 'number'],
      ['name', 'completed', 'number'],
      ['out', 'completed', 'number'],
    ]);
    if (sql) expect([await nodeRows(a.id), await nodeRows(b.id)]).toEqual([0, 3]);
  });

  it('metadata: no payload even when the run fails; retry says why, and works from the trigger with inputs given', async () => {
    const meta = await create('metadata', { policy: 'metadata' });
    const failed = await api.post('/api/execute', { pipeline_id: meta, inputs: { patient: patient(true) } });
    expect(failed.body.status).toBe('failed');
    const f = (await api.get(`/api/executions/${failed.body.execution_id}`)).body;
    expect(f).toMatchObject({ data_policy: 'metadata', payloads: 'not_kept', inputs: null, outputs: null, error: { node_id: 'name' } });
    expect(f.nodes.every((n: any) => n.inputs === null && n.outputs === null)).toBe(true);
    if (sql) expect((await stored(f.id))!.text).not.toContain(FAMILY);
    const refused = await api.post('/api/execute/retry', { execution_id: f.id, node_id: 'name', inputs: {} });
    expectError(refused, 409, 'PAYLOADS_NOT_KEPT');
    expect(refused.body.error.message).toContain('not kept');
    expectError(await api.post('/api/execute/retry', { execution_id: f.id, node_id: 'in', inputs: {} }), 409, 'PAYLOADS_NOT_KEPT');
    const again = await api.post('/api/execute/retry', { execution_id: f.id, node_id: 'in', inputs: { patient: patient() } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ status: 'completed', outputs: { family: FAMILY } });
  });

  it('test-mode runs and step sessions keep everything whatever the policy', async () => {
    const meta = await create('metadata tests', { policy: 'metadata' });
    const t = await api.post('/api/execute', { pipeline_id: meta, inputs: { patient: patient() }, test_mode: true });
    const detail = (await api.get(`/api/executions/${t.body.execution_id}`)).body;
    expect(detail).toMatchObject({ test_mode: true, data_policy: 'full', payloads: 'kept', inputs: { patient: patient() }, outputs: { family: FAMILY } });
    const s = await api.post('/api/execute/step', { pipeline_id: meta, inputs: { patient: patient() }, test_mode: true });
    let state = s.body;
    while (state.status === 'waiting') state = (await api.post(`/api/execute/step/${state.session_id}`, {})).body;
    expect(state.status).toBe('completed');
    expect((await api.get(`/api/executions/${s.body.execution_id}`)).body).toMatchObject({ payloads: 'kept', outputs: { family: FAMILY } });
  });

  it('MLLP under metadata: the message is acknowledged once stored, runs, and is then dropped; under errors a failed one stays', async () => {
    const port = await freePort();
    const listener = (expression: string) => ({
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port, ack_mode: 'completed' } },
        { id: 'parse', type: 'hl7v2-parse', config: {} },
        { id: 'check', type: 'jsonata-transform', config: { expression } },
        { id: 'out', type: 'pipeline-output', config: { key: 'message' } },
      ],
      connections: [
        { id: 'c1', source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
        { id: 'c2', source: 'parse', source_port: 'message', target: 'check', target_port: 'input' },
        { id: 'c3', source: 'check', source_port: 'output', target: 'out', target_port: 'value' },
      ],
    });
    const id = (await api.post('/api/pipelines', { name: 'feed', definition: listener('control_id'), data_settings: { policy: 'metadata' } })).body.id;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    const send = async () => {
      const c = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
      try {
        return (await c.sendAndWait(Hl7Message.parse(ADT), { timeoutMs: 30_000 })).getSegment('MSA')?.getField(1)?.toString();
      } finally {
        await c.close();
      }
    };
    expect(await send()).toBe('AA');
    const runs = (await api.get(`/api/executions?pipeline_id=${id}`)).body.executions;
    expect(runs).toHaveLength(1);
    const run = await pollExecution(api, runs[0].id);
    expect(run).toMatchObject({ trigger: 'mllp', status: 'completed', payloads: 'not_kept', inputs: null });
    expect(run.input_bytes).toBeGreaterThan(ADT.length / 2);
    const controlId = Hl7Message.parse(ADT).getSegment('MSH')!.getField(10)!.toString();
    if (sql) expect((await stored(run.id))!.text).not.toContain(controlId);

    // under errors, a message whose run fails keeps the raw message, to be retried
    await api.post(`/api/pipelines/${id}/undeploy`);
    await api.put(`/api/pipelines/${id}`, { definition: listener('$error("not today")'), data_settings: { policy: 'errors' } });
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    expect(await send()).toBe('AE');
    const failed = (await api.get(`/api/executions?pipeline_id=${id}&status=failed`)).body.executions[0];
    const f = await pollExecution(api, failed.id);
    expect(f).toMatchObject({ payloads: 'kept', inputs: { message: expect.stringContaining(controlId) } });
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it('does not leak one organization’s execution to another', async () => {
    const id = await create('private', { policy: 'errors' });
    const r = await api.post('/api/execute', { pipeline_id: id, inputs: { patient: patient(true) } });
    const other = client(target.url, target.orgB);
    expectError(await other.post('/api/execute/retry', { execution_id: r.body.execution_id, node_id: 'name', inputs: {} }), 404, 'EXECUTION_NOT_FOUND');
    expect(orgId).not.toBe(target.orgB.id);
  });
});
