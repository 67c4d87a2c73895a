import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey, trpc } from '../support/accounts';
import { newKey } from '../support/agents';
import { client, expectError, expectRateHeaders, type Client } from '../support/client';

/*
 * The audit trail (issue 30 §3), over HTTP.
 *
 * in (manual-trigger, field patient: json) ──patient──▶ out (pipeline-output "patient")
 */
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'patient' }, position: { x: 240, y: 0 } },
  ],
  connections: [{ id: 'c1', source: 'in', source_port: 'patient', target: 'out', target_port: 'value' }],
};
const PATIENT = 'Guzmán-Audited';
const PASSWORD = 'correct horse battery staple';

async function signIn(baseUrl: string, email: string, password: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
  await res.text();
  return res.status;
}

describe.each(inject('targets'))('audit trail on $name', (target) => {
  let api: Client;
  let org: Awaited<ReturnType<typeof orgWithKey>>;
  let email: string;
  let executionId: string;

  beforeAll(async () => {
    email = `audit-${target.name}-${Date.now()}@example.org`;
    org = await orgWithKey(target.url, email);
    api = client(target.url, org);
    const p = await api.post('/api/pipelines', { name: 'Audited ADT feed', definition });
    expect(p.status, p.text).toBe(201);
    const run = await api.post('/api/execute', { pipeline_id: p.body.id, inputs: { patient: { name: PATIENT } }, test_mode: true });
    expect(run.status, run.text).toBe(200);
    executionId = run.body.execution_id;
  });

  it('records each read of a run’s payloads, by API key and by a signed-in user, with address and channel', async () => {
    const read = await api.get(`/api/executions/${executionId}`);
    expect(read.text).toContain(PATIENT);
    await trpc(target.url, org.cookie, `executions.get?input=${encodeURIComponent(JSON.stringify({ id: executionId }))}`);

    const res = await api.get(`/api/audit-events?action=execution.read&object_id=${executionId}`);
    expect(res.status, res.text).toBe(200);
    expectRateHeaders(res);
    expect(res.body.total_count).toBe(2);
    const [byUser, byKey] = res.body.events;
    expect(byUser).toMatchObject({ actor: { type: 'user', name: email }, channel: 'app', object: { type: 'execution', id: executionId }, outcome: 'success' });
    expect(byKey).toMatchObject({ actor: { type: 'api-key', name: 'test' }, channel: 'api', object: { type: 'execution', id: executionId } });
    expect(byKey.address).toEqual(expect.any(String));
    const pipelines = await api.get('/api/audit-events?action=pipeline');
    expect(pipelines.body.events.map((e: any) => [e.action, e.object.name])).toEqual([['pipeline.create', 'Audited ADT feed']]);
  });

  it('records sign-ins and failed sign-ins, never the password', async () => {
    expect(await signIn(target.url, email, 'not the password at all')).toBe(401);
    expect(await signIn(target.url, email, PASSWORD)).toBe(200);
    const res = await api.get('/api/audit-events?action=session');
    expect(res.body.events.map((e: any) => [e.action, e.outcome, e.actor.name])).toEqual([
      ['session.sign-in', 'success', email],
      ['session.sign-in-failed', 'failure', email],
    ]);
    const failures = await api.get('/api/audit-events?outcome=failure');
    expect(failures.body.total_count).toBe(1);
  });

  it('exports FHIR R4 AuditEvent NDJSON, and holds no secret and no payload', async () => {
    const res = await fetch(`${target.url}/api/audit-events/export`, { headers: { authorization: `Bearer ${org.key}`, 'x-organization-id': org.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+ndjson');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    const text = await res.text();
    const events = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.every((e) => e.resourceType === 'AuditEvent')).toBe(true);
    const read = events.find((e) => e.subtype.some((s: any) => s.code === 'execution.read'));
    expect(read).toMatchObject({ action: 'R', outcome: '0', type: { code: 'rest' }, entity: [{ what: { identifier: { value: executionId } } }] });
    expect(events.at(-1).subtype[1].code).toBe('audit.export');

    const list = await api.get('/api/audit-events?limit=100');
    for (const body of [text, list.text]) {
      expect(body).not.toContain(PATIENT);
      expect(body).not.toContain(org.key);
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain('not the password at all');
    }
  });

  it('is for admins only; bad filters change nothing', async () => {
    const reader = client(target.url, await newKey(target.url, org, ['read', 'write', 'execute']));
    expectError(await reader.get('/api/audit-events'), 403, 'FORBIDDEN');
    expectError(await reader.get('/api/audit-events/export'), 403, 'FORBIDDEN');
    expectError(await api.get('/api/audit-events?since=yesterday'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/audit-events/export?outcome=maybe'), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/audit-events?limit=101'), 400, 'VALIDATION_FAILED');
    const other = client(target.url, await orgWithKey(target.url, `audit-other-${target.name}-${Date.now()}@example.org`));
    expect((await other.get(`/api/audit-events?object_id=${executionId}`)).body.total_count).toBe(0);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/audit-events'])).toEqual(['get']);
    expect(doc.paths['/audit-events/export'].get.responses['200'].content).toHaveProperty(['application/fhir+ndjson']);
  });
});
