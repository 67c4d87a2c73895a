import { beforeAll, describe, expect, inject, it } from 'vitest';
import { client, expectError, sampleDefinition, type Client } from '../support/client';

describe.each(inject('targets'))('organizations are isolated on $name', (target) => {
  const a = client(target.url, target.orgA);
  const b = client(target.url, target.orgB);
  // org B's key presented with org A's id
  const bAsA = client(target.url, { id: target.orgA.id, key: target.orgB.key });
  let pipelineId: string;
  let snapshot: unknown;

  beforeAll(async () => {
    const res = await a.post('/api/pipelines', { name: 'org A secret feed', description: 'A only', definition: sampleDefinition });
    expect(res.status).toBe(201);
    pipelineId = res.body.id;
    await a.put(`/api/pipelines/${pipelineId}`, { description: 'A only, v2' });
    snapshot = (await a.get(`/api/pipelines/${pipelineId}`)).body;
  });

  const endpoints = (id: string): [string, (c: Client) => ReturnType<Client['get']>][] => [
    ['GET /pipelines/{id}', (c) => c.get(`/api/pipelines/${id}`)],
    ['PUT /pipelines/{id}', (c) => c.put(`/api/pipelines/${id}`, { name: 'hijacked', definition: { nodes: [], connections: [] } })],
    ['DELETE /pipelines/{id}', (c) => c.del(`/api/pipelines/${id}`)],
    ['POST /pipelines/{id}/deploy', (c) => c.post(`/api/pipelines/${id}/deploy`)],
    ['POST /pipelines/{id}/undeploy', (c) => c.post(`/api/pipelines/${id}/undeploy`)],
    ['GET /pipelines/{id}/versions', (c) => c.get(`/api/pipelines/${id}/versions`)],
    ['GET /pipelines/{id}/versions/{n}', (c) => c.get(`/api/pipelines/${id}/versions/1`)],
  ];

  it("answers 404 to org B's key on every endpoint taking org A's ids", async () => {
    for (const [name, call] of endpoints(pipelineId)) {
      const res = await call(b);
      expectError(res, 404, 'PIPELINE_NOT_FOUND');
      expect(res.text, name).not.toContain('org A secret feed');
    }
  });

  it("answers 403 to org B's key sent with org A's organization id, on every endpoint", async () => {
    for (const [, call] of endpoints(pipelineId)) expectError(await call(bAsA), 403, 'FORBIDDEN');
    expectError(await bAsA.get('/api/pipelines'), 403, 'FORBIDDEN');
    expectError(await bAsA.post('/api/pipelines', { name: 'planted' }), 403, 'FORBIDDEN');
  });

  it("answers 404 to org B for org A's executions, and never lists them", async () => {
    const echo = {
      nodes: [
        { id: 'in', type: 'manual-trigger' },
        { id: 'out', type: 'pipeline-output' },
      ],
      connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
    };
    const runnable = (await a.post('/api/pipelines', { name: 'A runnable', definition: echo })).body.id;
    const run = await a.post('/api/execute', { pipeline_id: runnable, inputs: { message: 'MSH|' }, test_mode: true });
    expect(run.body.status).toBe('completed');
    const id = run.body.execution_id as string;
    expectError(await b.get(`/api/executions/${id}`), 404, 'EXECUTION_NOT_FOUND');
    expectError(await b.post('/api/execute/retry', { execution_id: id, node_id: 'in' }), 404, 'EXECUTION_NOT_FOUND');
    expectError(await b.post('/api/execute', { pipeline_id: runnable, test_mode: true }), 404, 'PIPELINE_NOT_FOUND');
    expectError(await b.post('/api/execute/step', { pipeline_id: runnable }), 404, 'PIPELINE_NOT_FOUND');
    expect((await b.get('/api/executions?limit=100')).text).not.toContain(id);
    expect((await b.get(`/api/executions?pipeline_id=${runnable}`)).body.total_count).toBe(0);
    expect((await b.get(`/api/stats?pipeline_id=${runnable}`)).body.total_executions).toBe(0);
    expectError(await bAsA.get(`/api/executions/${id}`), 403, 'FORBIDDEN');
  });

  it("never lists org A's pipelines to org B, and org A's pipeline is untouched", async () => {
    const listed = await b.get('/api/pipelines?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(pipelineId);
    const planted = await b.post('/api/pipelines', { name: 'B pipeline' });
    expect((await a.get('/api/pipelines?limit=100')).text).not.toContain(planted.body.id);
    expect((await a.get(`/api/pipelines/${pipelineId}`)).body).toEqual(snapshot);
    expect((await a.get(`/api/pipelines/${pipelineId}/versions`)).body.total_count).toBe(2);
  });
});
