import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, expectRateHeaders, sampleDefinition, type Client } from '../support/client';

describe.each(inject('targets'))('pipelines over REST on $name', (target) => {
  let api: Client;
  beforeAll(async () => {
    // a fresh organization, so counts and pages below are this file's alone
    const org = await orgWithKey(target.url, `pipelines-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
  });

  it('creates a pipeline: 201, generated UUID, version 1, active, Location header', async () => {
    const res = await api.post('/api/pipelines', { name: 'ADT to FHIR', description: 'inbound feed', definition: sampleDefinition });
    expect(res.status).toBe(201);
    expectRateHeaders(res);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('location')).toBe(`/api/pipelines/${res.body.id}`);
    expect(res.body).toMatchObject({ name: 'ADT to FHIR', description: 'inbound feed', status: 'active', version: 1 });
    expect(res.body.definition.nodes.map((n: { id: string }) => n.id)).toEqual(['in', 'parse']);
    expect(res.body.definition.connections[0]).toMatchObject({ source: 'in', target: 'parse', target_port: 'text' });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);

    const got = await api.get(`/api/pipelines/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...res.body, metadata: expect.any(Object) });
  });

  it('get returns metadata: who created and last changed it, counts, node types, the deployed version', async () => {
    const { body: p } = await api.post('/api/pipelines', { name: 'meta', description: '', definition: sampleDefinition });
    const first = (await api.get(`/api/pipelines/${p.id}`)).body.metadata;
    expect(first).toEqual({
      created_by: expect.stringMatching(/^api-key:/),
      updated_by: first.created_by,
      created_at: p.created_at,
      updated_at: p.updated_at,
      node_count: 2,
      connection_count: 1,
      node_types: ['hl7v2-parse', 'manual-trigger'],
      deployed_version: null,
      deployed_at: null,
      // what its runs keep: a new pipeline sets nothing of its own and inherits its organization's (data-policy.test.ts)
      data_settings: expect.objectContaining({
        overrides: { policy: null, payload_days: null, execution_days: null, max_executions: null },
        inherited: ['policy', 'payload_days', 'execution_days', 'max_executions'],
      }),
    });
    await api.put(`/api/pipelines/${p.id}`, { name: 'meta 2' });
    expect((await api.post(`/api/pipelines/${p.id}/deploy`)).status).toBe(200);
    const deployed = (await api.get(`/api/pipelines/${p.id}`)).body;
    expect(deployed.metadata).toMatchObject({ deployed_version: 2, deployed_at: deployed.deployed_at, updated_at: deployed.updated_at });
    expect(deployed.deployed_at).not.toBeNull();
    await api.post(`/api/pipelines/${p.id}/undeploy`);
  });

  it('pages the list: default 20, limit at most 100, offset, no definitions, total_count', async () => {
    const before = (await api.get('/api/pipelines?limit=1')).body.total_count as number;
    const created: string[] = [];
    for (let i = 0; i < 23; i++) {
      const r = await api.post('/api/pipelines', { name: `paged ${i}`, description: '', definition: sampleDefinition });
      created.push(r.body.id);
    }
    const total = before + 23;

    const first = await api.get('/api/pipelines');
    expect(first.status).toBe(200);
    expect(first.body.total_count).toBe(total);
    expect(first.body.pipelines).toHaveLength(20);
    expect(first.body.pipelines[0].id).toBe(created[22]); // newest first
    for (const p of first.body.pipelines) {
      expect(p).not.toHaveProperty('definition');
      expect(p).toMatchObject({ status: 'active', version: 1 });
    }

    const second = await api.get('/api/pipelines?limit=20&offset=20');
    expect(second.body.pipelines).toHaveLength(total - 20);
    const ids = new Set([...first.body.pipelines, ...second.body.pipelines].map((p: { id: string }) => p.id));
    expect(ids.size).toBe(total);

    expect((await api.get('/api/pipelines?limit=100')).body.pipelines).toHaveLength(total);
    const past = await api.get('/api/pipelines?offset=1000');
    expect(past.body).toEqual({ pipelines: [], total_count: total });

    for (const q of ['limit=101', 'limit=0', 'limit=-1', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      expectError(await api.get(`/api/pipelines?${q}`), 400, 'VALIDATION_FAILED');
    }
  });

  it('updates: bumps version, keeps every version as an immutable snapshot', async () => {
    const { body: p } = await api.post('/api/pipelines', { name: 'v1', description: 'first', definition: sampleDefinition });
    const renamed = await api.put(`/api/pipelines/${p.id}`, { name: 'v2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'v2', description: 'first', version: 2 });
    expect(renamed.body.definition).toEqual(p.definition);

    const emptied = await api.put(`/api/pipelines/${p.id}`, {
      name: 'v3',
      description: 'second',
      definition: { nodes: [], connections: [] },
    });
    expect(emptied.body).toMatchObject({ version: 3, name: 'v3' });
    expect(Date.parse(emptied.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at));

    const versions = await api.get(`/api/pipelines/${p.id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.total_count).toBe(3);
    expect(versions.body.versions.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([
      [3, 'v3'],
      [2, 'v2'],
      [1, 'v1'],
    ]);
    const v1 = await api.get(`/api/pipelines/${p.id}/versions/1`);
    expect(v1.body).toMatchObject({ pipeline_id: p.id, version: 1, name: 'v1', description: 'first' });
    expect(v1.body.definition).toEqual(p.definition);
    expectError(await api.get(`/api/pipelines/${p.id}/versions/4`), 404, 'PIPELINE_VERSION_NOT_FOUND');
    expectError(await api.get(`/api/pipelines/${p.id}/versions/0`), 400, 'VALIDATION_FAILED');
  });

  it('refuses a stale expected_version with 409 and keeps the newer version', async () => {
    const { body: p } = await api.post('/api/pipelines', { name: 'shared', description: '', definition: sampleDefinition });
    expect((await api.put(`/api/pipelines/${p.id}`, { name: 'alice', expected_version: 1 })).status).toBe(200);
    expectError(await api.put(`/api/pipelines/${p.id}`, { name: 'bob', expected_version: 1 }), 409, 'VERSION_CONFLICT');
    const now = await api.get(`/api/pipelines/${p.id}`);
    expect(now.body).toMatchObject({ name: 'alice', version: 2 });
  });

  it('rejects bad bodies with 400 and changes nothing', async () => {
    const { body: p } = await api.post('/api/pipelines', { name: 'stable', description: '', definition: sampleDefinition });
    const dup = { nodes: [sampleDefinition.nodes[0], sampleDefinition.nodes[0]], connections: [] };
    const bad = [
      {},
      { definition: dup },
      { name: '' },
      { name: 42 },
      { definition: { nodes: 'x', connections: [] } },
      { definition: { nodes: [{ id: 'has space', type: 'x' }], connections: [] } },
    ];
    for (const body of bad) {
      const res = await api.put(`/api/pipelines/${p.id}`, body);
      expectError(res, 400, 'VALIDATION_FAILED');
    }
    const dupRes = await api.post('/api/pipelines', { name: 'dup', definition: dup });
    expectError(dupRes, 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(dupRes.body.error.details)).toContain('duplicate node id');
    expectError(await api.post('/api/pipelines', { description: 'no name' }), 400, 'VALIDATION_FAILED');

    const after = await api.get(`/api/pipelines/${p.id}`);
    expect(after.body).toEqual({ ...p, metadata: expect.objectContaining({ updated_at: p.updated_at }) });
    expect((await api.get(`/api/pipelines/${p.id}/versions`)).body.total_count).toBe(1);
  });

  it('deploys and undeploys; a deployed pipeline cannot be deleted', async () => {
    // in ──▶ out
    const runnable = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: {}, position: { x: 240, y: 0 } },
      ],
      connections: [{ id: 'c1', source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
    };
    const { body: p } = await api.post('/api/pipelines', { name: 'deployable', description: '', definition: runnable });
    // a bodyless POST without content type, as curl -X POST sends it
    const deployed = await api.call('POST', `/api/pipelines/${p.id}/deploy`);
    expect(deployed.status).toBe(200);
    expect(deployed.body).toMatchObject({ id: p.id, status: 'deployed', version: 1 });
    expect(deployed.body.deployed_at).not.toBeNull();
    expect((await api.post(`/api/pipelines/${p.id}/deploy`, {})).body.status).toBe('deployed'); // idempotent

    expectError(await api.del(`/api/pipelines/${p.id}`), 409, 'PIPELINE_DEPLOYED');
    expect((await api.get(`/api/pipelines/${p.id}`)).body.status).toBe('deployed');

    const undeployed = await api.post(`/api/pipelines/${p.id}/undeploy`);
    expect(undeployed.body).toMatchObject({ status: 'active', deployed_at: null });

    const del = await api.del(`/api/pipelines/${p.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectRateHeaders(del);
    expectError(await api.get(`/api/pipelines/${p.id}`), 404, 'PIPELINE_NOT_FOUND');
    expectError(await api.get(`/api/pipelines/${p.id}/versions`), 404, 'PIPELINE_NOT_FOUND');
    expectError(await api.del(`/api/pipelines/${p.id}`), 404, 'PIPELINE_NOT_FOUND');
  });

  it('refuses to deploy a pipeline with problems, naming them, and leaves it undeployed', async () => {
    const unknownType = {
      nodes: [...sampleDefinition.nodes, { id: 'mystery', type: 'no-such-node', config: {}, position: { x: 0, y: 0 } }],
      connections: sampleDefinition.connections,
    };
    for (const definition of [{ nodes: [], connections: [] }, unknownType]) {
      const { body: p } = await api.post('/api/pipelines', { name: 'not ready', description: '', definition });
      const refused = await api.post(`/api/pipelines/${p.id}/deploy`);
      expectError(refused, 400, 'PIPELINE_INVALID');
      expectRateHeaders(refused);
      const codes = (refused.body.error.details as { code: string; node_id: string | null }[]).map((d) => d.code);
      expect(codes).toContain(definition.nodes.length === 0 ? 'EMPTY_PIPELINE' : 'UNKNOWN_NODE_TYPE');
      expect((await api.get(`/api/pipelines/${p.id}`)).body.status).toBe('active');
      expectError(await api.post('/api/execute', { pipeline_id: p.id, inputs: {} }), 409, 'PIPELINE_NOT_DEPLOYED');
    }
  });

  it('answers 404 PIPELINE_NOT_FOUND for unknown and malformed ids on every pipeline endpoint', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'%20or%201=1"]) {
      expectError(await api.get(`/api/pipelines/${id}`), 404, 'PIPELINE_NOT_FOUND');
      expectError(await api.put(`/api/pipelines/${id}`, { name: 'x' }), 404, 'PIPELINE_NOT_FOUND');
      expectError(await api.del(`/api/pipelines/${id}`), 404, 'PIPELINE_NOT_FOUND');
      expectError(await api.post(`/api/pipelines/${id}/deploy`), 404, 'PIPELINE_NOT_FOUND');
      expectError(await api.post(`/api/pipelines/${id}/undeploy`), 404, 'PIPELINE_NOT_FOUND');
      expectError(await api.get(`/api/pipelines/${id}/versions`), 404, 'PIPELINE_NOT_FOUND');
      expectError(await api.get(`/api/pipelines/${id}/versions/1`), 404, 'PIPELINE_NOT_FOUND');
    }
  });
});
