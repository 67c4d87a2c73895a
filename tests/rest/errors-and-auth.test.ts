import http from 'node:http';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey, trpc } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';

describe.each(inject('targets'))('errors and authentication on $name', (target) => {
  let api: Client;
  let org: Awaited<ReturnType<typeof orgWithKey>>;
  beforeAll(async () => {
    org = await orgWithKey(target.url, `errors-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
  });

  it('answers unknown paths, wrong methods, bad JSON and wrong content types in the error shape', async () => {
    expectError(await api.get('/api/no-such-thing'), 404, 'NOT_FOUND');
    expectError(await api.get('/api'), 404, 'NOT_FOUND');
    expectError(await api.get('/api/pipelines/x/y/z'), 404, 'NOT_FOUND');

    const wrong = await api.call('PATCH', '/api/pipelines');
    expectError(wrong, 405, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expectError(await api.call('POST', '/api/pipelines/00000000-0000-4000-8000-000000000000'), 405, 'METHOD_NOT_ALLOWED');

    const before = (await api.get('/api/pipelines')).body.total_count;
    expectError(await api.post('/api/pipelines', '{"name": "broken', { 'content-type': 'application/json' }), 400, 'INVALID_JSON');
    expectError(await api.post('/api/pipelines', '{"name":"x"}', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await api.post('/api/pipelines', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await api.post('/api/pipelines', '[1,2]', { 'content-type': 'application/json' }), 400, 'VALIDATION_FAILED');
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(3 * 1024 * 1024) });
    expectError(await api.post('/api/pipelines', big, { 'content-type': 'application/json' }), 413, 'PAYLOAD_TOO_LARGE');
    expect((await api.get('/api/pipelines')).body.total_count).toBe(before); // nothing was created
  });

  it('answers 400, not 500, for JSON nested thousands deep and for NUL characters the database cannot store', async () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const before = (await api.get('/api/pipelines')).body.total_count;
    for (const path of ['/api/pipelines', '/api/execute', '/api/execute/step']) {
      const r = await api.post(path, `{"name":"deep","pipeline_id":"x","inputs":${deep(5000)}}`, { 'content-type': 'application/json' });
      expectError(r, 400, 'JSON_TOO_DEEP');
      expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
    }
    // brackets inside strings are text, not nesting
    expect((await api.post('/api/pipelines', { name: `${'['.repeat(150)} ok`, description: '{'.repeat(500) })).status).toBe(201);
    expectError(await api.post('/api/pipelines', { name: 'a\u0000b' }), 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/pipelines', { name: 'ok', description: 'nul \u0000' }), 400, 'VALIDATION_FAILED');
    const nulNode = { nodes: [{ id: 'in', type: 'manual-trigger', name: 'in\u0000', config: {} }], connections: [] };
    expectError(await api.post('/api/pipelines', { name: 'ok', definition: nulNode }), 400, 'VALIDATION_FAILED');
    expect((await api.get('/api/pipelines')).body.total_count).toBe(before + 1);
  });

  it('stops reading a body at the limit, even one sent without a length, on JSON routes, webhooks, sign-in and tRPC', async () => {
    // 3 MiB in 64 KiB chunks, chunked transfer encoding: the server cannot know the size up front
    const chunked = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 3 * 1024 * 1024) return controller.close();
          controller.enqueue(new TextEncoder().encode(sent === 0 ? `{"name": "x", "description": "${'y'.repeat(65_536 - 30)}` : 'y'.repeat(65_536)));
          sent += 65_536;
        },
      });
    };
    const headers = { authorization: `Bearer ${org.key}`, 'x-organization-id': org.id, 'content-type': 'application/json' };
    for (const path of ['/api/pipelines', '/api/webhooks/00000000-0000-4000-8000-000000000000', '/api/auth/sign-in/email']) {
      const res = await fetch(`${target.url}${path}`, { method: 'POST', headers, body: chunked(), duplex: 'half' } as RequestInit);
      expect(res.status, path).toBe(413);
      expect((await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    }
    // the web app's tRPC endpoint has the same limit, answered in tRPC's shape (the app's client reads that)
    const before = (await api.get('/api/pipelines')).body.total_count;
    for (const body of [chunked(), JSON.stringify({ name: 'x', description: 'y'.repeat(3 * 1024 * 1024) })]) {
      const res = await fetch(`${target.url}/api/trpc/pipelines.create`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(413);
      expect((await res.json()).error.data.app.code).toBe('PAYLOAD_TOO_LARGE');
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    }
    expect((await api.get('/api/pipelines')).body.total_count).toBe(before);
  });

  it('answers TRACE, unknown methods, RSC and dot segments, and broken percent-encoding in paths in the error shape or normally, never 500', async () => {
    const headers = { authorization: `Bearer ${org.key}`, 'x-organization-id': org.id };
    for (const path of ['/api/pipelines', '/api/webhooks/x', '/', '/pipelines']) {
      // fetch refuses to send TRACE: a raw request shows what the server answers
      const raw = await rawRequest(target.url, 'TRACE', path, headers);
      expect(raw.status, path).toBe(405);
      expect(JSON.parse(raw.body).error.code).toBe('METHOD_NOT_ALLOWED');
    }
    // a method Node's parser does not know, and a malformed header: the error shape and the headers, not an empty 400
    const unknown = await rawRequest(target.url, 'FOO', '/api/pipelines', headers);
    expect(unknown.status).toBe(405);
    expect(JSON.parse(unknown.body).error.code).toBe('METHOD_NOT_ALLOWED');
    expect(unknown.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    // Next's page conventions do not reach the API: `RSC: 1` and `..` segments are answered as any request is
    const rsc = await rawRequest(target.url, 'GET', '/api/pipelines', { ...headers, RSC: '1' });
    expect(rsc.status).toBe(200);
    expect(rsc.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const dots = await rawRequest(target.url, 'GET', '/api/../api/pipelines', headers);
    expect(dots.status).toBe(200);
    expect(JSON.parse(dots.body).pipelines).toBeInstanceOf(Array);
    for (const path of ['/api/node-catalog/search/%ff', '/api/pipelines/%ff', '/api/pipelines/%ff/versions', '/api/agents/%E0%A4%A', '/api/%ff']) {
      const res = await fetch(`${target.url}${path}`, { headers });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect((await res.json()).error.status).toBe(res.status);
    }
  });

  it('gives field errors as details on validation failures', async () => {
    const res = await api.post('/api/pipelines', { name: '', definition: { nodes: [{ type: 'x' }], connections: [] } });
    expectError(res, 400, 'VALIDATION_FAILED');
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'definition.nodes.0.id']));
  });

  it('needs a valid key: 401 when missing, malformed, unknown, or without X-Organization-ID', async () => {
    const anon = await fetch(`${target.url}/api/pipelines`);
    expectError({ status: anon.status, headers: anon.headers, body: await anon.json(), text: '' }, 401, 'UNAUTHENTICATED');
    const cases: Record<string, string>[] = [
      { authorization: 'Basic dXNlcjpwYXNz', 'x-organization-id': org.id },
      { authorization: 'Bearer', 'x-organization-id': org.id },
      { authorization: 'Bearer cfk_not_a_real_key_000000000000', 'x-organization-id': org.id },
      { authorization: `Bearer ${org.key}` },
    ];
    for (const headers of cases) {
      const res = await fetch(`${target.url}/api/pipelines`, { headers });
      const text = await res.text();
      expectError({ status: res.status, headers: res.headers, body: JSON.parse(text), text }, 401, 'UNAUTHENTICATED');
    }
    // unknown paths need a key too: nothing is told to strangers
    const res = await fetch(`${target.url}/api/nowhere`);
    expect(res.status).toBe(401);
  });

  it('answers 403 for a key of another organization and for a key lacking the scope', async () => {
    const other = await orgWithKey(target.url, `errors-other-${target.name}-${Date.now()}@example.org`);
    expectError(await client(target.url, { id: org.id, key: other.key }).get('/api/pipelines'), 403, 'FORBIDDEN');

    const readKey = await trpc<{ key: string }>(target.url, org.cookie, 'keys.create', { name: 'reader', scopes: ['read'] });
    const reader = client(target.url, { id: org.id, key: readKey.key });
    expect((await reader.get('/api/pipelines')).status).toBe(200);
    const before = (await api.get('/api/pipelines')).body.total_count;
    expectError(await reader.post('/api/pipelines', { name: 'nope' }), 403, 'FORBIDDEN');
    const { body: p } = await api.post('/api/pipelines', { name: 'target' });
    expectError(await reader.put(`/api/pipelines/${p.id}`, { name: 'x' }), 403, 'FORBIDDEN');
    expectError(await reader.del(`/api/pipelines/${p.id}`), 403, 'FORBIDDEN');
    expectError(await reader.post(`/api/pipelines/${p.id}/deploy`), 403, 'FORBIDDEN');
    expect((await api.get('/api/pipelines')).body.total_count).toBe(before + 1);
    expect((await api.get(`/api/pipelines/${p.id}`)).body).toMatchObject({ name: 'target', status: 'active', version: 1 });

    const execKey = await trpc<{ key: string }>(target.url, org.cookie, 'keys.create', { name: 'exec', scopes: ['execute'] });
    expectError(await client(target.url, { id: org.id, key: execKey.key }).post('/api/pipelines', { name: 'x' }), 403, 'FORBIDDEN');
  });

  it('stops a revoked key at once', async () => {
    const made = await trpc<{ id: string; key: string }>(target.url, org.cookie, 'keys.create', { name: 'short-lived', scopes: ['read'] });
    const shortLived = client(target.url, { id: org.id, key: made.key });
    expect((await shortLived.get('/api/pipelines')).status).toBe(200);
    await trpc(target.url, org.cookie, 'keys.revoke', { id: made.id });
    expectError(await shortLived.get('/api/pipelines'), 401, 'UNAUTHENTICATED');
    const keys = await trpc<{ id: string; revoked_at: string | null; last_used_at: string | null; prefix: string }[]>(target.url, org.cookie, 'keys.list');
    const listed = keys.find((k) => k.id === made.id)!;
    expect(listed.revoked_at).not.toBeNull();
    expect(listed.last_used_at).not.toBeNull();
    expect(made.key.startsWith(listed.prefix)).toBe(true);
    expect(JSON.stringify(keys)).not.toContain(made.key);
  });

  it('refuses key scopes that do not exist', async () => {
    await expect(trpc(target.url, org.cookie, 'keys.create', { name: 'bad', scopes: ['root'] })).rejects.toThrow(/VALIDATION_FAILED/);
    await expect(
      trpc(target.url, org.cookie, 'keys.create', { name: 'agent', scopes: ['agent/00000000-0000-4000-8000-000000000000:execute'] }),
    ).resolves.toMatchObject({ scopes: ['agent/00000000-0000-4000-8000-000000000000:execute'] });
  });
});

/** A request sent as written, for methods fetch will not send (TRACE). */
function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
