import net from 'node:net';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client, pollExecution } from '../support/client';
import { freePort } from '../support/server';

/*
 * Deploy publishes one version: production runs (the API, webhooks, listeners) use the deployed version until the
 * next deploy; a save makes a new version and changes nothing that runs.
 *
 * in (manual-trigger, field patient: json) ──patient──▶ pick (jsonata `answer`) ──▶ out (key "answer")
 */
const answering = (answer: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } } },
    { id: 'pick', type: 'jsonata-transform', config: { expression: JSON.stringify(answer) } },
    { id: 'out', type: 'pipeline-output', config: { key: 'answer' } },
  ],
  connections: [
    { id: 'c1', source: 'in', source_port: 'patient', target: 'pick', target_port: 'input' },
    { id: 'c2', source: 'pick', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

/** The same with a connection to a node that does not exist: saved as is, refused by the validator. */
const broken = () => {
  const d = answering('broken');
  return { ...d, connections: [...d.connections, { id: 'c3', source: 'pick', source_port: 'output', target: 'ghost', target_port: 'value' }] };
};

const inputs = { patient: { resourceType: 'Patient' } };

/** Whether something accepts TCP connections on the port. */
function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

describe.each(inject('targets'))('deploy publishes one version, on $name', (target) => {
  let api: Client;
  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `deployed-version-${target.name}-${Date.now()}@example.org`));
  });

  it('a save after deploy changes nothing that runs in production; the next deploy publishes it', async () => {
    const created = await api.post('/api/pipelines', { name: 'published', definition: answering('one') });
    expect(created.body).toMatchObject({ version: 1, deployed_version: null, status: 'active' });
    const id = created.body.id as string;
    const deployed = await api.post(`/api/pipelines/${id}/deploy`);
    expect(deployed.body).toMatchObject({ status: 'deployed', version: 1, deployed_version: 1 });

    const saved = await api.put(`/api/pipelines/${id}`, { definition: answering('two') });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ status: 'deployed', version: 2, deployed_version: 1 });
    const got = (await api.get(`/api/pipelines/${id}`)).body;
    expect(got).toMatchObject({ version: 2, deployed_version: 1, metadata: { deployed_version: 1 } });
    const listed = (await api.get('/api/pipelines?limit=100')).body.pipelines.find((p: { id: string }) => p.id === id);
    expect(listed).toMatchObject({ version: 2, deployed_version: 1 });

    // production, sync and async: the live version answers
    const sync = await api.post('/api/execute', { pipeline_id: id, inputs });
    expect(sync.body).toMatchObject({ status: 'completed', outputs: { answer: 'one' } });
    expect((await api.get(`/api/executions/${sync.body.execution_id}`)).body.pipeline_version).toBe(1);
    const queued = await api.post('/api/execute', { pipeline_id: id, inputs, async: true });
    expect(await pollExecution(api, queued.body.execution_id)).toMatchObject({ status: 'completed', pipeline_version: 1, outputs: { answer: 'one' } });
    // a test run is the editor's: the latest saved version answers
    const test = await api.post('/api/execute', { pipeline_id: id, inputs, test_mode: true });
    expect(test.body).toMatchObject({ status: 'completed', outputs: { answer: 'two' } });

    const redeployed = await api.post(`/api/pipelines/${id}/deploy`);
    expect(redeployed.body).toMatchObject({ status: 'deployed', version: 2, deployed_version: 2 });
    expect((await api.post('/api/execute', { pipeline_id: id, inputs })).body.outputs).toEqual({ answer: 'two' });
    const again = await api.post('/api/execute', { pipeline_id: id, inputs, async: true });
    expect(await pollExecution(api, again.body.execution_id)).toMatchObject({ pipeline_version: 2, outputs: { answer: 'two' } });

    const undeployed = await api.post(`/api/pipelines/${id}/undeploy`);
    expect(undeployed.body).toMatchObject({ status: 'active', version: 2, deployed_version: null });
    expectError(await api.post('/api/execute', { pipeline_id: id, inputs }), 409, 'PIPELINE_NOT_DEPLOYED');
  });

  it('the OpenAPI document describes deployed_version in every pipeline answer', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    const resolve = (schema: any): any =>
      schema?.$ref
        ? resolve(
            schema.$ref
              .split('/')
              .slice(1)
              .reduce((o: any, k: string) => o[k], doc),
          )
        : schema;
    const answer = (path: string, method: string, status: string) => resolve(doc.paths[path][method].responses[status].content['application/json'].schema);
    for (const [path, method, status] of [
      ['/pipelines/{id}', 'get', '200'],
      ['/pipelines/{id}', 'put', '200'],
      ['/pipelines', 'post', '201'],
      ['/pipelines/{id}/deploy', 'post', '200'],
      ['/pipelines/{id}/undeploy', 'post', '200'],
    ] as const) {
      const schema = answer(path, method, status);
      expect(schema.required, `${method} ${path}`).toContain('deployed_version');
      expect(JSON.stringify(resolve(schema.properties.deployed_version)), `${method} ${path}`).toMatch(/integer/);
    }
    const item = resolve(resolve(answer('/pipelines', 'get', '200').properties.pipelines).items);
    expect(item.required).toContain('deployed_version');
  });

  it('a broken save cannot break production: runs go on with the live version, and deploying it is refused', async () => {
    const id = (await api.post('/api/pipelines', { name: 'guarded', definition: answering('live') })).body.id as string;
    await api.post(`/api/pipelines/${id}/deploy`);
    expect((await api.post('/api/execute', { pipeline_id: id, inputs })).body.outputs).toEqual({ answer: 'live' });

    const saved = await api.put(`/api/pipelines/${id}`, { definition: broken() });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ version: 2, deployed_version: 1, status: 'deployed' });

    const run = await api.post('/api/execute', { pipeline_id: id, inputs });
    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({ status: 'completed', outputs: { answer: 'live' } });
    const queued = await api.post('/api/execute', { pipeline_id: id, inputs, async: true });
    expect(await pollExecution(api, queued.body.execution_id)).toMatchObject({ status: 'completed', outputs: { answer: 'live' } });
    // the editor's test run meets the broken version
    expectError(await api.post('/api/execute', { pipeline_id: id, inputs, test_mode: true }), 400, 'PIPELINE_INVALID');

    const refused = await api.post(`/api/pipelines/${id}/deploy`);
    expectError(refused, 400, 'PIPELINE_INVALID');
    expect((await api.get(`/api/pipelines/${id}`)).body).toMatchObject({ status: 'deployed', version: 2, deployed_version: 1 });
    expect((await api.post('/api/execute', { pipeline_id: id, inputs })).body.outputs).toEqual({ answer: 'live' });
  });

  it('webhooks run the deployed version until the next deploy', async () => {
    // hook (webhook-trigger) ──event──▶ out (key first | second)
    const hooked = (key: string) => ({
      nodes: [
        { id: 'hook', type: 'webhook-trigger' },
        { id: 'out', type: 'pipeline-output', config: { key } },
      ],
      connections: [{ source: 'hook', source_port: 'event', target: 'out', target_port: 'value' }],
    });
    const id = (await api.post('/api/pipelines', { name: 'hooked', definition: hooked('first') })).body.id as string;
    await api.post(`/api/pipelines/${id}/deploy`);
    await api.put(`/api/pipelines/${id}`, { definition: hooked('second') });
    const before = await api.post(`/api/webhooks/${id}`, { n: 1 });
    expect(before.status).toBe(202);
    const ran = await pollExecution(api, before.body.execution_id);
    expect(ran).toMatchObject({ status: 'completed', pipeline_version: 1 });
    expect(Object.keys(ran.outputs)).toEqual(['first']);

    await api.post(`/api/pipelines/${id}/deploy`);
    const after = await pollExecution(api, (await api.post(`/api/webhooks/${id}`, { n: 2 })).body.execution_id);
    expect(after).toMatchObject({ status: 'completed', pipeline_version: 2 });
    expect(Object.keys(after.outputs)).toEqual(['second']);
    await api.post(`/api/pipelines/${id}/undeploy`);
  });

  it("an MLLP listener keeps the deployed version's port when a save changes it, and moves on redeploy", async () => {
    const [first, second] = [await freePort(), await freePort()];
    // in (mllp-listener-trigger) ──message──▶ out
    const listener = (port: number) => ({
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port } },
        { id: 'out', type: 'pipeline-output', config: { key: 'message' } },
      ],
      connections: [{ source: 'in', source_port: 'message', target: 'out', target_port: 'value' }],
    });
    const id = (await api.post('/api/pipelines', { name: 'listener', definition: listener(first) })).body.id as string;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    expect(await reachable(first)).toBe(true);

    expect((await api.put(`/api/pipelines/${id}`, { definition: listener(second) })).status).toBe(200);
    expect(await reachable(first)).toBe(true);
    expect(await reachable(second)).toBe(false);

    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    expect(await reachable(second)).toBe(true);
    expect(await reachable(first)).toBe(false);
    await api.post(`/api/pipelines/${id}/undeploy`);
    expect(await reachable(second)).toBe(false);
  });

  it("a redeploy on the same port keeps a sender's connection: its next message runs the new version", async () => {
    const port = await freePort();
    // in (mllp-listener-trigger) ──message──▶ out (key first | second)
    const listener = (key: string) => ({
      nodes: [
        { id: 'in', type: 'mllp-listener-trigger', config: { port } },
        { id: 'out', type: 'pipeline-output', config: { key } },
      ],
      connections: [{ source: 'in', source_port: 'message', target: 'out', target_port: 'value' }],
    });
    const id = (await api.post('/api/pipelines', { name: 'kept connection', definition: listener('first') })).body.id as string;
    expect((await api.post(`/api/pipelines/${id}/deploy`)).status).toBe(200);
    const newest = async () => (await api.get(`/api/executions?pipeline_id=${id}&limit=1`)).body.executions[0];
    const sender = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
    try {
      const send = async (n: number) => {
        const ack = await sender.sendAndWait(Hl7Message.parse(`MSH|^~\\&|LAB|NORTH|EHR|MAIN|202401011200||ADT^A01|CTRL${n}|P|2.5\rPID|1||${n}`), {
          timeoutMs: 30_000,
        });
        expect(ack.getSegment('MSA')?.getField(1)?.toString()).toBe('AA');
        return newest();
      };
      expect(await send(1)).toMatchObject({ pipeline_version: 1 });
      await api.put(`/api/pipelines/${id}`, { definition: listener('second') });
      expect(await send(2)).toMatchObject({ pipeline_version: 1 });
      expect((await api.post(`/api/pipelines/${id}/deploy`)).body).toMatchObject({ deployed_version: 2 });
      const after = await send(3);
      expect(after).toMatchObject({ pipeline_version: 2 });
      expect(Object.keys((await pollExecution(api, after.id)).outputs)).toEqual(['second']);
    } finally {
      await sender.close();
    }
    await api.post(`/api/pipelines/${id}/undeploy`);
  });
});
