import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';

/*
 * in (manual-trigger, field patient: json) ──patient──▶ name (jsonata: family name) ──▶ out (key "family")
 */
const definition = (expression = 'name[0].family') => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } } },
    { id: 'name', type: 'jsonata-transform', config: { expression } },
    { id: 'out', type: 'pipeline-output', config: { key: 'family' } },
  ],
  connections: [
    { id: 'c1', source: 'in', source_port: 'patient', target: 'name', target_port: 'input' },
    { id: 'c2', source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

const patient = { resourceType: 'Patient', name: [{ family: 'Kshlerin', given: ['Aaron'] }] };

async function poll(api: Client, id: string) {
  for (let i = 0; i < 200; i++) {
    const r = await api.get(`/api/executions/${id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`execution ${id} did not finish`);
}

describe.each(inject('targets'))('executions over REST on $name', (target) => {
  let api: Client;
  let deployed: string;
  let draft: string;
  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `exec-${target.name}-${Date.now()}@example.org`));
    deployed = (await api.post('/api/pipelines', { name: 'family name', definition: definition() })).body.id;
    await api.post(`/api/pipelines/${deployed}/deploy`);
    draft = (await api.post('/api/pipelines', { name: 'draft', definition: definition() })).body.id;
  });

  it('runs synchronously: status, outputs and per-node status and duration', async () => {
    const r = await api.post('/api/execute', { pipeline_id: deployed, inputs: { patient } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'completed', outputs: { family: 'Kshlerin' } });
    expect(Object.keys(r.body.node_results).sort()).toEqual(['in', 'name', 'out']);
    for (const n of Object.values(r.body.node_results) as { status: string; duration_ms: number }[]) {
      expect(n.status).toBe('completed');
      expect(Number.isInteger(n.duration_ms)).toBe(true);
    }
    const detail = await api.get(`/api/executions/${r.body.execution_id}`);
    expect(detail.body).toMatchObject({
      id: r.body.execution_id,
      pipeline_id: deployed,
      pipeline_version: 1,
      status: 'completed',
      test_mode: false,
      inputs: { patient },
    });
    const name = detail.body.nodes.find((n: { node_id: string }) => n.node_id === 'name');
    expect(name).toMatchObject({
      node_type: 'jsonata-transform',
      status: 'completed',
      inputs: { input: patient },
      outputs: { output: 'Kshlerin' },
      attempts: 1,
    });
    expect(Date.parse(name.finished_at)).toBeGreaterThanOrEqual(Date.parse(name.started_at));
  });

  it('needs a deployed pipeline for a real run, but test mode runs any pipeline', async () => {
    expectError(await api.post('/api/execute', { pipeline_id: draft, inputs: { patient } }), 409, 'PIPELINE_NOT_DEPLOYED');
    const t = await api.post('/api/execute', { pipeline_id: draft, inputs: { patient }, test_mode: true });
    expect(t.body).toMatchObject({ status: 'completed', outputs: { family: 'Kshlerin' } });
    expect((await api.get(`/api/executions/${t.body.execution_id}`)).body.test_mode).toBe(true);
  });

  it('runs the version current at each call, sync and async, and refuses once undeployed or deleted', async () => {
    const id = (await api.post('/api/pipelines', { name: 'changing', definition: definition() })).body.id;
    await api.post(`/api/pipelines/${id}/deploy`);
    const sync = () => api.post('/api/execute', { pipeline_id: id, inputs: { patient } });
    const asyncRun = async () =>
      (await poll(api, (await api.post('/api/execute', { pipeline_id: id, inputs: { patient }, async: true })).body.execution_id)).body;
    expect((await sync()).body.outputs).toEqual({ family: 'Kshlerin' });
    expect(await asyncRun()).toMatchObject({ pipeline_version: 1, outputs: { family: 'Kshlerin' } });
    const updated = await api.put(`/api/pipelines/${id}`, { definition: definition('name[0].given[0]') });
    expect(updated.body.version).toBe(2);
    await api.post(`/api/pipelines/${id}/deploy`);
    const second = await sync();
    expect(second.body.outputs).toEqual({ family: 'Aaron' });
    expect((await api.get(`/api/executions/${second.body.execution_id}`)).body.pipeline_version).toBe(2);
    expect(await asyncRun()).toMatchObject({ pipeline_version: 2, outputs: { family: 'Aaron' } });
    await api.post(`/api/pipelines/${id}/undeploy`);
    const count = async () => (await api.get(`/api/executions?pipeline_id=${id}`)).body.total_count;
    const before = await count();
    expectError(await sync(), 409, 'PIPELINE_NOT_DEPLOYED');
    expectError(await api.post('/api/execute', { pipeline_id: id, inputs: { patient }, async: true }), 409, 'PIPELINE_NOT_DEPLOYED');
    expect(await count()).toBe(before);
    expect((await api.post('/api/execute', { pipeline_id: id, inputs: { patient }, test_mode: true })).body.outputs).toEqual({ family: 'Aaron' });
    await api.del(`/api/pipelines/${id}`);
    expectError(await api.post('/api/execute', { pipeline_id: id, inputs: { patient }, test_mode: true }), 404, 'PIPELINE_NOT_FOUND');
  });

  it('refuses bad requests without creating an execution', async () => {
    const before = (await api.get('/api/executions')).body.total_count;
    expectError(await api.post('/api/execute', { inputs: {} }), 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/execute', { pipeline_id: deployed, inputs: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/execute', { pipeline_id: '00000000-0000-4000-8000-000000000000' }), 404, 'PIPELINE_NOT_FOUND');
    const broken = (await api.post('/api/pipelines', { name: 'broken', definition: { nodes: [{ id: 'x', type: 'nope' }], connections: [] } })).body.id;
    const invalid = await api.post('/api/execute', { pipeline_id: broken, test_mode: true });
    expectError(invalid, 400, 'PIPELINE_INVALID');
    expect(invalid.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ node_id: 'x', code: 'UNKNOWN_NODE_TYPE' })]));
    expect((await api.get('/api/executions')).body.total_count).toBe(before);
  });

  it('reports a failing node by name and counts it in the stats by node type', async () => {
    const failing = (await api.post('/api/pipelines', { name: 'fails', definition: definition('$error("no family name")') })).body.id;
    const r = await api.post('/api/execute', { pipeline_id: failing, inputs: { patient }, test_mode: true });
    expect(r.body).toMatchObject({ status: 'failed', error: { node_id: 'name', code: 'TRANSFORM_FAILED' } });
    expect(r.body.error.message).toContain('Node "name" (jsonata-transform) failed');
    // only the failing node is failed; the one after it did not run, and says why
    expect(r.body.node_results).toMatchObject({
      in: { status: 'completed' },
      name: { status: 'failed' },
      out: { status: 'skipped', reason: 'upstream_failed' },
    });
    const stats = await api.get(`/api/stats?pipeline_id=${failing}`);
    expect(stats.body).toMatchObject({ total_executions: 1, success_rate: 0, by_status: { failed: 1 } });
    expect(stats.body.error_distribution).toEqual([{ node_type: 'jsonata-transform', count: 1, codes: { TRANSFORM_FAILED: 1 } }]);
    const all = await api.get('/api/stats');
    expect(all.body.success_rate).toBeGreaterThan(0);
    expect(all.body.average_duration_ms).toBeGreaterThanOrEqual(0);
    expectError(await api.get('/api/stats?since=yesterday'), 400, 'VALIDATION_FAILED');
  });

  it('runs asynchronously: answers running at once, the execution completes on the queue', async () => {
    const r = await api.post('/api/execute', { pipeline_id: deployed, inputs: { patient }, async: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ execution_id: expect.any(String), status: 'running' });
    const done = await poll(api, r.body.execution_id);
    expect(done.body).toMatchObject({ status: 'completed', trigger: 'async', outputs: { family: 'Kshlerin' } });
  });

  it('lists history newest first with filters and paging', async () => {
    const list = await api.get(`/api/executions?pipeline_id=${deployed}&limit=2`);
    expect(list.body.executions).toHaveLength(2);
    expect(list.body.total_count).toBeGreaterThanOrEqual(2);
    expect(list.body.executions[0]).not.toHaveProperty('nodes');
    expect(Date.parse(list.body.executions[0].created_at)).toBeGreaterThanOrEqual(Date.parse(list.body.executions[1].created_at));
    const failed = await api.get('/api/executions?status=failed');
    expect(failed.body.executions.every((e: { status: string }) => e.status === 'failed')).toBe(true);
    expect(failed.body.executions[0].error.code).toBe('TRANSFORM_FAILED');
    expectError(await api.get('/api/executions?status=exploded'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/executions/00000000-0000-4000-8000-000000000000'), 404, 'EXECUTION_NOT_FOUND');
  });

  it('finds runs by text in their inputs or outputs and by creation time', async () => {
    const mrn = `MRN-${Date.now()}`;
    const marked = { ...patient, identifier: [{ system: 'urn:mrn', value: mrn }], name: [{ family: `O'Brien_100%` }] };
    const run = await api.post('/api/execute', { pipeline_id: deployed, inputs: { patient: marked } });
    const ids = async (query: string) => (await api.get(`/api/executions?${query}`)).body.executions.map((e: { id: string }) => e.id);
    expect(await ids(`q=${mrn}`)).toEqual([run.body.execution_id]);
    expect(await ids(`q=${mrn.toLowerCase()}`)).toEqual([run.body.execution_id]); // case-insensitive
    // found in the outputs too, literally: quotes, % and _ are text, not wildcards
    expect(await ids(`q=${encodeURIComponent("O'Brien_100%")}`)).toEqual([run.body.execution_id]);
    expect(await ids(`q=${encodeURIComponent("O'Brien_1000")}`)).toEqual([]);
    const since = new Date(Date.now() - 10 * 60_000).toISOString();
    expect(await ids(`q=${mrn}&since=${since}`)).toEqual([run.body.execution_id]);
    expect(await ids(`q=${mrn}&until=${since}`)).toEqual([]);
    expectError(await api.get('/api/executions?since=0000-01-01T00:00:00Z'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/stats?since=0000-01-01T00:00:00Z'), 400, 'VALIDATION_FAILED');
  });

  it("lists an execution's nodes in the graph's order, whatever the definition's order or the clock says", async () => {
    const d = definition();
    const reversed = { nodes: [...d.nodes].reverse(), connections: d.connections };
    const id = (await api.post('/api/pipelines', { name: 'listed backwards', definition: reversed })).body.id;
    const run = (await api.post('/api/execute', { pipeline_id: id, inputs: { patient }, test_mode: true })).body;
    const detail = (await api.get(`/api/executions/${run.execution_id}`)).body;
    expect(detail.nodes.map((n: { node_id: string }) => n.node_id)).toEqual(['in', 'name', 'out']);
    const retry = (await api.post('/api/execute/retry', { execution_id: run.execution_id, node_id: 'name' })).body;
    const again = (await api.get(`/api/executions/${retry.execution_id}`)).body;
    expect(again.nodes.map((n: { node_id: string }) => n.node_id)).toEqual(['in', 'name', 'out']); // the reused trigger first
  });

  it('retries from the middle node: upstream keeps its stored run, inputs may replace ports of the node, {} reuses them', async () => {
    const first = await api.post('/api/execute', { pipeline_id: deployed, inputs: { patient } });
    const original = (await api.get(`/api/executions/${first.body.execution_id}`)).body;
    const retry = await api.post('/api/execute/retry', { execution_id: original.id, node_id: 'name', inputs: { input: { name: [{ family: 'Rau' }] } } });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'completed', outputs: { family: 'Rau' }, retry_of: original.id });
    const detail = (await api.get(`/api/executions/${retry.body.execution_id}`)).body;
    expect(detail).toMatchObject({ retry_of: original.id, trigger: 'retry', pipeline_version: 1 });
    const trigger = detail.nodes.find((n: { node_id: string }) => n.node_id === 'in');
    expect(trigger.started_at).toBe(original.nodes.find((n: { node_id: string }) => n.node_id === 'in').started_at);

    const plain = await api.post('/api/execute/retry', { execution_id: original.id, node_id: 'name' });
    expect(plain.body.outputs).toEqual({ family: 'Kshlerin' });
    expectError(await api.post('/api/execute/retry', { execution_id: original.id, node_id: 'ghost' }), 404, 'NODE_NOT_FOUND');
    // the spec's body with an empty object: the node runs again on its recorded inputs
    const empty = await api.post('/api/execute/retry', { execution_id: original.id, node_id: 'name', inputs: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ status: 'completed', outputs: { family: 'Kshlerin' }, retry_of: original.id });
    // from the trigger with {}: the execution's own inputs
    const fromTrigger = await api.post('/api/execute/retry', { execution_id: original.id, node_id: 'in', inputs: {} });
    expect(fromTrigger.body).toMatchObject({ status: 'completed', outputs: { family: 'Kshlerin' } });
    // a port the node does not have is a mistake, refused and named
    const unknown = await api.post('/api/execute/retry', { execution_id: original.id, node_id: 'name', inputs: { nope: 1, input: {} } });
    expectError(unknown, 400, 'VALIDATION_FAILED');
    expect(unknown.body.error.details).toEqual([{ path: 'inputs.nope', message: 'node "name" has no input "nope"' }]);
    expectError(await api.post('/api/execute/retry', { execution_id: '00000000-0000-4000-8000-000000000000', node_id: 'name' }), 404, 'EXECUTION_NOT_FOUND');
  });

  it('steps through one node at a time, with an edited output', async () => {
    const s = await api.post('/api/execute/step', { pipeline_id: draft, inputs: { patient } });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ status: 'waiting', current_node: 'in' });
    const a1 = await api.post(`/api/execute/step/${s.body.session_id}`, {});
    expect(a1.body).toMatchObject({ status: 'waiting', current_node: 'name', finished_node: { node_id: 'in', status: 'completed' } });
    expectError(await api.post(`/api/execute/step/${s.body.session_id}`, { node_outputs: { nope: 1 } }), 400, 'VALIDATION_FAILED');
    const a2 = await api.post(`/api/execute/step/${s.body.session_id}`, { node_outputs: { output: 'Edited' } });
    expect(a2.body).toMatchObject({ status: 'waiting', current_node: 'out', finished_node: { node_id: 'name', outputs: { output: 'Edited' } } });
    const a3 = await api.post(`/api/execute/step/${s.body.session_id}`);
    expect(a3.body).toMatchObject({ status: 'completed', current_node: null });
    expect((await api.get(`/api/executions/${s.body.execution_id}`)).body).toMatchObject({
      status: 'completed',
      trigger: 'step',
      outputs: { family: 'Edited' },
    });
    expectError(await api.post(`/api/execute/step/${s.body.session_id}`, {}), 409, 'STEP_SESSION_FINISHED');
    expectError(await api.post('/api/execute/step/00000000-0000-4000-8000-000000000000', {}), 404, 'STEP_SESSION_NOT_FOUND');
  });

  it('steps for real (test_mode false) only through a deployed pipeline, as a run does', async () => {
    const before = (await api.get(`/api/executions?pipeline_id=${draft}`)).body.total_count;
    expectError(await api.post('/api/execute/step', { pipeline_id: draft, inputs: { patient }, test_mode: false }), 409, 'PIPELINE_NOT_DEPLOYED');
    expect((await api.get(`/api/executions?pipeline_id=${draft}`)).body.total_count).toBe(before);
    const s = await api.post('/api/execute/step', { pipeline_id: deployed, inputs: { patient }, test_mode: false });
    expect(s.body).toMatchObject({ status: 'waiting', current_node: 'in' });
    expect((await api.get(`/api/executions/${s.body.execution_id}`)).body.test_mode).toBe(false);
  });

  it('a failed step ends the session and records the nodes after it, as a full run does', async () => {
    // in ──▶ name (jsonata that fails at run time) ──▶ out
    const failing = (await api.post('/api/pipelines', { name: 'fails in the middle', definition: definition('$sum("x")') })).body.id;
    const s = await api.post('/api/execute/step', { pipeline_id: failing, inputs: { patient } });
    await api.post(`/api/execute/step/${s.body.session_id}`, {});
    const failed = await api.post(`/api/execute/step/${s.body.session_id}`, {});
    expect(failed.body).toMatchObject({ status: 'failed', current_node: null, error: { node_id: 'name', code: 'TRANSFORM_FAILED' } });
    expect(failed.body.node_results.out).toEqual({ status: 'skipped', duration_ms: 0, reason: 'upstream_failed' });
    const detail = (await api.get(`/api/executions/${s.body.execution_id}`)).body;
    expect(detail.status).toBe('failed');
    expect(detail.nodes.find((n: { node_id: string }) => n.node_id === 'out')).toMatchObject({ status: 'skipped', reason: 'upstream_failed', error: null });
    const full = (await api.post('/api/execute', { pipeline_id: failing, inputs: { patient }, test_mode: true })).body;
    expect(Object.fromEntries(Object.entries(failed.body.node_results).map(([id, r]) => [id, (r as { status: string }).status]))).toEqual(
      Object.fromEntries(Object.entries(full.node_results).map(([id, r]) => [id, (r as { status: string }).status])),
    );
  });

  it('steps into a for-each node: its body runs, and the session ends as a sync run does', async () => {
    // in (field items) ──items──▶ each (for-each; body: bin ─item▶ name (jsonata family) ▶ bout "family") ──results──▶ out "families"
    const body = { ...definition(), nodes: definition().nodes.map((n) => (n.id === 'in' ? { ...n, config: { fields: { item: 'json' } } } : n)) };
    body.connections = body.connections.map((c) => (c.source === 'in' ? { ...c, source_port: 'item' } : c));
    const loop = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { items: 'json' } } },
        { id: 'each', type: 'for-each', config: { body } },
        { id: 'out', type: 'pipeline-output', config: { key: 'families' } },
      ],
      connections: [
        { id: 'c1', source: 'in', source_port: 'items', target: 'each', target_port: 'items' },
        { id: 'c2', source: 'each', source_port: 'results', target: 'out', target_port: 'value' },
      ],
    };
    const id = (await api.post('/api/pipelines', { name: 'loop', definition: loop })).body.id;
    const items = [patient, { name: [{ family: 'Okuneva' }] }];
    const s = await api.post('/api/execute/step', { pipeline_id: id, inputs: { items } });
    expect((await api.post(`/api/execute/step/${s.body.session_id}`, {})).body).toMatchObject({ status: 'waiting', current_node: 'each' });
    const each = await api.post(`/api/execute/step/${s.body.session_id}`, {});
    expect(each.status).toBe(200);
    expect(each.body).toMatchObject({
      status: 'waiting',
      current_node: 'out',
      finished_node: { node_id: 'each', status: 'completed', outputs: { results: [{ family: 'Kshlerin' }, { family: 'Okuneva' }] } },
    });
    const last = await api.post(`/api/execute/step/${s.body.session_id}`, {});
    const sync = (await api.post('/api/execute', { pipeline_id: id, inputs: { items }, test_mode: true })).body;
    expect(last.body).toMatchObject({ status: 'completed', current_node: null });
    const statuses = (r: Record<string, { status: string }>) => Object.entries(r).map(([node, { status }]) => `${node}:${status}`);
    expect(statuses(last.body.node_results)).toEqual(statuses(sync.node_results));
    expect((await api.get(`/api/executions/${s.body.execution_id}`)).body).toMatchObject({ status: 'completed', outputs: sync.outputs });
    expect(sync.outputs).toEqual({ families: [{ family: 'Kshlerin' }, { family: 'Okuneva' }] });
  });

  it('a retry keeps the outputs of the branches it does not re-run', async () => {
    //        ┌▶ family (jsonata) ─▶ out "family"
    // in ────┤
    //        └▶ given (jsonata) ──▶ out2 "given"
    const base = definition();
    const twoOutputs = {
      nodes: [
        ...base.nodes,
        { id: 'given', type: 'jsonata-transform', config: { expression: 'name[0].given[0]' } },
        { id: 'out2', type: 'pipeline-output', config: { key: 'given' } },
      ],
      connections: [
        ...base.connections,
        { id: 'c3', source: 'in', source_port: 'patient', target: 'given', target_port: 'input' },
        { id: 'c4', source: 'given', source_port: 'output', target: 'out2', target_port: 'value' },
      ],
    };
    const id = (await api.post('/api/pipelines', { name: 'two outputs', definition: twoOutputs })).body.id;
    const first = (await api.post('/api/execute', { pipeline_id: id, inputs: { patient }, test_mode: true })).body;
    expect(first.outputs).toEqual({ family: 'Kshlerin', given: 'Aaron' });
    const retry = await api.post('/api/execute/retry', {
      execution_id: first.execution_id,
      node_id: 'given',
      inputs: { input: { name: [{ given: ['Abe'] }] } },
    });
    expect(retry.body).toMatchObject({ status: 'completed', outputs: { family: 'Kshlerin', given: 'Abe' } });
  });
});

describe.each(inject('targets'))('webhooks on $name', (target) => {
  it("start an execution of the deployed pipeline with the request's body, headers and query", async () => {
    const org = await orgWithKey(target.url, `hook-${target.name}-${Date.now()}@example.org`);
    const api = client(target.url, org);
    // hook (webhook-trigger) ──body──▶ out
    const definition = {
      nodes: [
        { id: 'hook', type: 'webhook-trigger' },
        { id: 'out', type: 'pipeline-output', config: { key: 'received' } },
      ],
      connections: [{ source: 'hook', source_port: 'event', target: 'out', target_port: 'value' }],
    };
    const id = (await api.post('/api/pipelines', { name: 'lab results in', definition })).body.id;
    expectError(await api.post(`/api/webhooks/${id}`, { a: 1 }), 409, 'PIPELINE_NOT_DEPLOYED');
    await api.post(`/api/pipelines/${id}/deploy`);

    const json = await api.post(`/api/webhooks/${id}?source=lis`, { resourceType: 'Observation', status: 'final' }, { 'x-lab': 'north' });
    expect(json.status).toBe(202);
    const done = await poll(api, json.body.execution_id);
    expect(done.body).toMatchObject({ status: 'completed', trigger: 'webhook' });
    expect(done.body.outputs.received).toMatchObject({
      body: { resourceType: 'Observation', status: 'final' },
      query: { source: 'lis' },
      headers: { 'x-lab': 'north' },
    });
    expect(done.body.outputs.received.headers).not.toHaveProperty('authorization');

    const hl7 = 'MSH|^~\\&|LAB|NORTH|EHR|MAIN|202401011200||ORU^R01|1|P|2.5\rPID|1||12345';
    const text = await api.post(`/api/webhooks/${id}`, hl7, { 'content-type': 'text/plain' });
    expect((await poll(api, text.body.execution_id)).body.outputs.received.body).toBe(hl7);

    expectError(await api.get(`/api/webhooks/${id}`), 405, 'METHOD_NOT_ALLOWED');
    expectError(await api.post(`/api/webhooks/${id}`, '{broken', { 'content-type': 'application/json' }), 400, 'INVALID_JSON');
    const manual = (await api.post('/api/pipelines', { name: 'manual', definition: manualDefinition() })).body.id;
    await api.post(`/api/pipelines/${manual}/deploy`);
    expectError(await api.post(`/api/webhooks/${manual}`, {}), 409, 'WEBHOOK_NOT_ENABLED');
    expectError(await api.post('/api/webhooks/00000000-0000-4000-8000-000000000000', {}), 404, 'PIPELINE_NOT_FOUND');
    const other = await orgWithKey(target.url, `hook-other-${target.name}-${Date.now()}@example.org`);
    expectError(await client(target.url, other).post(`/api/webhooks/${id}`, {}), 404, 'PIPELINE_NOT_FOUND');
    await api.post(`/api/pipelines/${id}/undeploy`); // after calls that were accepted: the server has seen it deployed
    expectError(await api.post(`/api/webhooks/${id}`, { a: 1 }), 409, 'PIPELINE_NOT_DEPLOYED');
  });
});

function manualDefinition() {
  return {
    nodes: [
      { id: 'in', type: 'manual-trigger' },
      { id: 'out', type: 'pipeline-output' },
    ],
    connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
  };
}
