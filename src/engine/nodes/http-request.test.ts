import { describe, expect, it } from 'vitest';
import type { ConnectorHandle } from '../node-type';
import { httpRequestNode as httpRequest } from './http-request.execute';
import { failure, runNode, SYNTHEA_PATIENTS, testContext, testServices } from '../../../tests/support/engine/node-context';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

/** A stand-in for the receiving system: records each call and answers with `reply`. */
function recorder(reply: (call: Call) => Response | Promise<Response> = () => Response.json({ ok: true }, { status: 201 })) {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body as string | undefined,
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return reply(call);
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const url = 'https://partner.example.org/fhir/Patient?token=secret';
const patient = SYNTHEA_PATIENTS[0];

describe('http-request', () => {
  it('POSTs the body as JSON with the Idempotency-Key and returns the parsed response', async () => {
    const server = recorder(() =>
      Response.json({ resourceType: 'Patient', id: 'srv-1' }, { status: 201, headers: { 'content-type': 'application/fhir+json' } }),
    );
    const ctx = testContext({ executionId: 'exec-42', nodeId: 'send', idempotencyKey: 'exec-42:send', services: testServices({ fetch: server.fetch }) });
    const r = await runNode(httpRequest, { url, headers: { Authorization: 'Bearer abc' } }, { body: patient }, ctx);
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call).toMatchObject({ url, method: 'POST' });
    expect(call!.headers).toMatchObject({ 'idempotency-key': 'exec-42:send', 'content-type': 'application/json', authorization: 'Bearer abc' });
    expect(JSON.parse(call!.body!)).toEqual(patient);
    expect(r.simulated).toBeUndefined();
    expect(r.outputs.response).toMatchObject({
      status: 201,
      body: { resourceType: 'Patient', id: 'srv-1' },
      headers: { 'content-type': 'application/fhir+json' },
    });
    // logs never show the query string (it may carry a token)
    expect(ctx.logs.map((l) => l.message).join('\n')).not.toContain('secret');
  });

  it('in test mode never calls out and returns the exact request it would send', async () => {
    const server = recorder();
    const ctx = testContext({ testMode: true, idempotencyKey: 'exec-7:send', services: testServices({ fetch: server.fetch }) });
    const headers = { 'X-Source': 'clinflow', Authorization: 'Bearer abc' };
    const r = await runNode(httpRequest, { url, method: 'PUT', headers }, { body: patient }, ctx);
    expect(server.calls).toHaveLength(0);
    expect(r).toEqual({
      simulated: true,
      outputs: {
        response: {
          simulated: true,
          request: {
            method: 'PUT',
            url,
            headers: expect.objectContaining({
              'X-Source': 'clinflow',
              'Idempotency-Key': 'exec-7:send',
              'Content-Type': 'application/json',
              Authorization: '****', // never stored in the execution record
            }),
            body: patient,
          },
        },
      },
    });
  });

  it('sends a string body as it is when a Content-Type is given (HL7 v2 over HTTP)', async () => {
    const server = recorder(() => new Response('MSA|AA|MSG00001', { headers: { 'content-type': 'text/plain' } }));
    const hl7 = 'MSH|^~\\&|ADT|HOSP|||202401011200||ADT^A01|MSG00001|P|2.5';
    const ctx = testContext({ services: testServices({ fetch: server.fetch }) });
    const r = await runNode(httpRequest, { url, headers: { 'Content-Type': 'x-application/hl7-v2+er7' } }, { body: hl7 }, ctx);
    expect(server.calls[0]!.body).toBe(hl7);
    expect(server.calls[0]!.headers['content-type']).toBe('x-application/hl7-v2+er7');
    expect((r.outputs.response as { body: unknown }).body).toBe('MSA|AA|MSG00001');
  });

  it('sends no body with GET, and the user cannot drop the Idempotency-Key', async () => {
    const server = recorder();
    const ctx = testContext({ idempotencyKey: 'e:n', services: testServices({ fetch: server.fetch }) });
    await runNode(httpRequest, { url, method: 'GET', headers: { 'idempotency-key': 'mine' } }, { body: { q: 1 } }, ctx);
    expect(server.calls[0]).toMatchObject({ method: 'GET', body: undefined });
    expect(server.calls[0]!.headers['idempotency-key']).toBe('e:n');
    expect(ctx.logs.some((l) => l.level === 'warn' && l.message.includes('GET'))).toBe(true);
  });

  it('fails with HTTP_ERROR, the status and a short excerpt on a non-2xx answer', async () => {
    const long = JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', diagnostics: 'x'.repeat(2000) }] });
    const server = recorder(() => new Response(long, { status: 422, headers: { 'content-type': 'application/json' } }));
    const run = runNode(httpRequest, { url }, { body: patient }, testContext({ services: testServices({ fetch: server.fetch }) }));
    const error = await failure(run);
    expect(error).toMatchObject({ code: 'HTTP_ERROR', message: expect.stringContaining('answered 422: {"resourceType":"OperationOutcome"') });
    expect(error.message.length).toBeLessThan(500);
    expect(error.message).not.toContain('secret');
  });

  it('fails with HTTP_TIMEOUT when the server does not answer in time', async () => {
    const server = recorder((call) => new Promise<Response>((_, reject) => call.signal?.addEventListener('abort', () => reject(call.signal?.reason))));
    const started = Date.now();
    const run = runNode(httpRequest, { url, timeout_ms: 150 }, { body: {} }, testContext({ services: testServices({ fetch: server.fetch }) }));
    await expect(run).rejects.toMatchObject({ code: 'HTTP_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails with HTTP_REQUEST_FAILED when the host cannot be reached', async () => {
    const fetch = (() =>
      Promise.reject(new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND partner.example.org') }))) as typeof globalThis.fetch;
    await expect(runNode(httpRequest, { url }, {}, testContext({ services: testServices({ fetch }) }))).rejects.toMatchObject({
      code: 'HTTP_REQUEST_FAILED',
      message: expect.stringContaining('ENOTFOUND'),
    });
  });

  it('through an http connector: its base URL, headers and credentials, sent only to its own host, masked in test mode', async () => {
    const payer: ConnectorHandle = {
      id: 'c-payer',
      name: 'Payer API',
      type: 'http',
      endpoint: 'https://api.payer.example/v1',
      config: { auth: 'api-key', header_name: 'X-Payer-Key', headers: { Accept: 'application/fhir+json' } },
      credentials: { api_key: 'pk_live_0123456789' },
      updatedAt: '2026-11-25T00:00:00.000Z',
    };
    const services = (fetch: typeof globalThis.fetch) =>
      testServices({ fetch, connector: async (ref, type) => (ref === 'Payer API' && type === 'http' ? payer : Promise.reject(new Error('unknown'))) });
    const { calls, fetch } = recorder();
    await runNode(httpRequest, { connector: 'Payer API', url: '/claims?batch=1' }, { body: { id: 1 } }, testContext({ services: services(fetch) }));
    expect(calls[0]).toMatchObject({
      url: 'https://api.payer.example/v1/claims?batch=1',
      headers: { 'x-payer-key': 'pk_live_0123456789', accept: 'application/fhir+json' },
    });

    // a full URL on another host would carry the key elsewhere: refused before any call
    const other = recorder();
    const refused = await failure(
      runNode(httpRequest, { connector: 'Payer API', url: 'https://attacker.example/x' }, {}, testContext({ services: services(other.fetch) })),
    );
    expect(refused.code).toBe('CONNECTOR_URL_REFUSED');
    expect(other.calls).toHaveLength(0);

    // test mode shows the request with the connector's secret header masked
    const test = recorder();
    const simulated = await runNode(
      httpRequest,
      { connector: 'Payer API', url: '/claims' },
      { body: {} },
      testContext({ testMode: true, services: services(test.fetch) }),
    );
    expect(JSON.stringify(simulated)).not.toContain('pk_live_0123456789');
    expect(simulated.outputs.response).toMatchObject({
      simulated: true,
      request: { url: 'https://api.payer.example/v1/claims', headers: { 'X-Payer-Key': '****' } },
    });
    expect(test.calls).toHaveLength(0);
    // without a connector, a path is not an address
    expect(httpRequest.config.safeParse({ url: '/claims' }).success).toBe(false);
  });

  it('accepts only http(s) URLs and valid header names', () => {
    expect(httpRequest.config.safeParse({ url: 'ftp://example.org/x' }).success).toBe(false);
    expect(httpRequest.config.safeParse({ url: 'not a url' }).success).toBe(false);
    expect(httpRequest.config.safeParse({ url, headers: { 'Bad Header': 'x' } }).success).toBe(false);
    expect(httpRequest.config.parse({ url })).toEqual({ url, method: 'POST', headers: {}, timeout_ms: 10_000 });
  });

  it('is a write node with an optional body', () => {
    expect(httpRequest.side_effect).toBe('write');
    expect(httpRequest.ports(httpRequest.config.parse({ url })).inputs).toEqual([expect.objectContaining({ name: 'body', optional: true })]);
  });
});
