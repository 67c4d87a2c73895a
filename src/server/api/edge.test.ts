import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { AppError } from '@/server/errors';
import { createRuntime, type Runtime } from '@/server/runtime';
import { serviceContext } from '@/server/services/context';
import { bootstrap } from '@/server/services/orgs/bootstrap';
import { MAX_BODY_BYTES } from './body';
import { apiEdge } from './edge';

const ORG = 'edge-org';
const KEY = 'cfk_edge_test_key_0123456789abcdef';
const LIMIT = 20;

/** The request edge over a real runtime (in-memory PGlite, a limit of 20 requests per window). */
describe('request edge', () => {
  let rt: Runtime;
  let withApi: ReturnType<typeof apiEdge>;
  let address = 0;
  beforeAll(async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    await migrateDatabase(database);
    await bootstrap(database.db, { orgId: ORG, apiKey: KEY });
    rt = await createRuntime(database, { rateLimitPerWindow: LIMIT });
    withApi = apiEdge(async () => rt);
  }, 60_000);
  afterAll(() => rt.database.close());

  /** A request with the key; each test uses its own budget (organization or address) where it counts. */
  const request = (init: RequestInit & { key?: boolean } = {}) => {
    const headers = new Headers(init.headers);
    if (init.key !== false) {
      headers.set('authorization', `Bearer ${KEY}`);
      headers.set('x-organization-id', ORG);
    }
    headers.set('x-forwarded-for', `10.0.0.${++address}`);
    return new Request('http://clinflow.test/api/thing', { ...init, headers, duplex: 'half' } as RequestInit);
  };
  const expectRateHeaders = (res: Response) => {
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(res.headers.get(h), h).toMatch(/^\d+$/);
  };

  it('refuses a request without a key for `key` access in the spec shape, with the rate-limit headers', async () => {
    const handler = vi.fn(() => Response.json({}));
    const res = await withApi('key', handler)(request({ key: false }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String), status: 401 } });
    expectRateHeaders(res);
    expect(handler).not.toHaveBeenCalled();
  });

  it('gives the handler the caller, from which serviceContext builds what a service needs', async () => {
    const res = await withApi('key', (_req, edge) => {
      const ctx = serviceContext(edge.rt, edge.principal);
      return Response.json({ org: ctx.principal.orgId, db: ctx.db === rt.db, queue: ctx.queue === rt.queue });
    })(request());
    expect(await res.json()).toEqual({ org: ORG, db: true, queue: true });
    expectRateHeaders(res);
  });

  it('answers an AppError in the spec shape, and anything else as a logged 500 without stack or SQL', async () => {
    const notFound = await withApi('key', () => {
      throw new AppError('PIPELINE_NOT_FOUND', 'Pipeline x was not found.');
    })(request());
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ error: { code: 'PIPELINE_NOT_FOUND', message: 'Pipeline x was not found.', status: 404 } });
    expectRateHeaders(notFound);

    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const crash = await withApi('public', async () => {
        throw new Error('relation "secret_table" does not exist: select * from secret_table');
      })(request({ method: 'POST', body: '{}' }));
      expect(crash.status).toBe(500);
      const text = await crash.text();
      expect(JSON.parse(text)).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error.', status: 500 } });
      expect(text).not.toMatch(/secret_table|at .*edge/);
      expectRateHeaders(crash);
      const lines = logged.mock.calls.map((c) => String(c[0]));
      expect(lines.some((l) => l.includes('request failed') && l.includes('secret_table'))).toBe(true);
    } finally {
      logged.mockRestore();
    }
  });

  it('puts the rate-limit headers on a streamed (SSE) response and leaves its body streaming', async () => {
    const sse = withApi('key', () => {
      const events = ['event: thinking\ndata: {}\n\n', 'event: done\ndata: {}\n\n'];
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          const next = events.shift();
          if (next) c.enqueue(new TextEncoder().encode(next));
          else c.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
    });
    const res = await sse(request({ method: 'POST' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expectRateHeaders(res);
    expect(await res.text()).toBe('event: thinking\ndata: {}\n\nevent: done\ndata: {}\n\n');
  });

  it('cuts a body at MAX_BODY_BYTES for whoever reads it: 413, the connection closed, headers on', async () => {
    const echo = withApi('public', async (req) => Response.json({ length: (await req.text()).length }));
    const chunks = (total: number) => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= total) return c.close();
          c.enqueue(new Uint8Array(64 * 1024).fill(121));
          sent += 64 * 1024;
        },
      });
    };
    // no Content-Length (chunked): refused as soon as the bytes read pass the limit
    const big = await echo(request({ method: 'POST', body: chunks(MAX_BODY_BYTES + 256 * 1024) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    expect(big.headers.get('connection')).toBe('close');
    expectRateHeaders(big);

    // a declared length over the limit: refused before the handler sees a byte; the upload is read and
    // dropped (so a client still sending reads the 413, not a broken pipe), up to a bound, then cut off
    let pulled = 0;
    const unread = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const declared = await echo(request({ method: 'POST', body: unread, headers: { 'content-length': String(MAX_BODY_BYTES + 1) } }));
    expect(declared.status).toBe(413);
    expect(pulled * 1024).toBeLessThanOrEqual(8 * MAX_BODY_BYTES + 1024); // this upload never ends: the drain gave up
    expect(declared.headers.get('connection')).toBe('close');

    // a library that catches the refusal itself and answers 500 (better-auth does) still answers 413
    const swallowing = withApi('public', async (req) => {
      await req.text().catch(() => undefined);
      return new Response('internal', { status: 500 });
    });
    const caught = await swallowing(request({ method: 'POST', body: chunks(MAX_BODY_BYTES + 64 * 1024) }));
    expect(caught.status).toBe(413);
    expect((await caught.json()).error.code).toBe('PAYLOAD_TOO_LARGE');

    // at the limit it is read whole
    const fits = await echo(request({ method: 'POST', body: chunks(MAX_BODY_BYTES) }));
    expect(fits.status).toBe(200);
    expect(await fits.json()).toEqual({ length: MAX_BODY_BYTES });
    expect(fits.headers.get('connection')).toBeNull();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the database is away, still counted and with the headers', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    await migrateDatabase(database);
    const away = await createRuntime(database, { rateLimitPerWindow: LIMIT });
    await database.close();
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const handler = vi.fn(() => Response.json({}));
      const res = await apiEdge(async () => away)('key', handler)(request());
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', status: 503 } });
      expect(res.headers.get('retry-after')).toBe('2');
      expectRateHeaders(res);
      expect(handler).not.toHaveBeenCalled();
      // not started at all: nothing could count it, but the answer is the same
      const starting = await apiEdge(() => Promise.reject(new Error('connect ECONNREFUSED')))('public', handler)(request());
      expect(starting.status).toBe(503);
      expect(starting.headers.get('retry-after')).toBe('2');
    } finally {
      logged.mockRestore();
    }
  }, 60_000);

  it('answers 429 RATE_LIMITED with Retry-After once the budget is spent; tRPC (`optional`) is told and answers itself', async () => {
    const ok = withApi('key', () => new Response(null, { status: 204 }));
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < LIMIT + 2; i++) {
      last = await ok(request());
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(last!.status).toBe(429);
    expect(await last!.json()).toMatchObject({ error: { code: 'RATE_LIMITED', status: 429 } });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');

    const optional = await withApi('optional', (_req, edge) => Response.json({ told: edge.authError?.code }))(request());
    expect(await optional.json()).toEqual({ told: 'RATE_LIMITED' });
    expect(optional.headers.get('retry-after')).not.toBeNull();
  });
});
