import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequestNode } from '@/engine/nodes/http-request.execute';
import { runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { createOutboundFetch, outboundErrorOf } from './fetch';
import { createOutboundExchange } from './request';
import { Transport } from './transport';
import { OutboundPolicy } from './policy';
import { OutboundError } from '@/shared/outbound-error';

interface Hit {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const servers: http.Server[] = [];

/** A real HTTP server on a loopback address; records what it receives. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, hit: Hit) => void, host = '127.0.0.1') {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const hit = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      hits.push(hit);
      handler(req, res, hit);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { hits, port, url: `http://${host}:${port}` };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const limits = { timeoutMs: 10_000, maxBytes: 1024 * 1024 };

/** What a test reads of an answer (its body read whole, so that a failure reading it rejects the call). */
interface Answer {
  status: number;
  url: string;
  redirected: boolean;
  header(name: string): string | null;
  text: string;
}
type CallOut = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal; redirect?: 'manual' },
) => Promise<Answer>;

/** The two ways out on one transport: the web fetch (services.fetch) and the plain exchange (services.request). */
const WAYS: [string, (options: { policy: OutboundPolicy; timeoutMs: number; maxBytes: number }) => CallOut][] = [
  [
    'fetch',
    (options) => {
      const fetch = createOutboundFetch(options);
      return async (url, init) => {
        const res = await fetch(url, init);
        const text = await res.text();
        return { status: res.status, url: res.url, redirected: res.redirected, header: (n) => res.headers.get(n), text };
      };
    },
  ],
  [
    'request',
    (options) => {
      const request = createOutboundExchange(new Transport(options));
      return async (url, init = {}) => {
        const a = await request({ url, method: init.method ?? 'GET', ...init });
        return { status: a.status, url: a.url, redirected: a.redirected, header: (n) => a.headers[n] ?? null, text: a.body.toString() };
      };
    },
  ],
];

async function rejection(p: Promise<unknown>) {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );
  return { error: e as Error, outbound: outboundErrorOf(e) };
}

describe.each(WAYS)('outbound calls through %s', (way, make) => {
  it('refuses loopback by default and sends nothing', async () => {
    const target = await serve((_, res) => res.end('secret'));
    const fetch = make({ policy: new OutboundPolicy(), ...limits });
    for (const url of [target.url, `http://localhost:${target.port}/`, `http://2130706433:${target.port}/`, `http://[::ffff:127.0.0.1]:${target.port}/`]) {
      const { error, outbound } = await rejection(fetch(url));
      // fetch fails as fetch does (a TypeError whose cause says why); the plain exchange with the OutboundError itself
      expect(error).toBeInstanceOf(way === 'fetch' ? TypeError : OutboundError);
      expect(outbound?.code, url).toBe('OUTBOUND_REFUSED');
      expect(outbound?.message).toContain('loopback');
    }
    const meta = await rejection(fetch('http://169.254.169.254/latest/meta-data/'));
    expect(meta.outbound?.message).toMatch(/^169\.254\.169\.254, a link-local address/);
    expect(target.hits).toHaveLength(0);
  });

  it('passes a loopback call that OUTBOUND_ALLOW allows, like fetch: body, headers, status, JSON, gzip', async () => {
    const target = await serve((req, res, hit) => {
      if (hit.path === '/gz') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync('unzipped text'));
      }
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-test']) });
      res.end(JSON.stringify({ method: hit.method, body: hit.body }));
    });
    const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), ...limits });
    const res = await fetch(`${target.url}/items?x=1`, { method: 'POST', headers: { 'X-Test': 'yes', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.header('x-echo')).toBe('yes');
    expect(res.url).toBe(`${target.url}/items?x=1`);
    expect(JSON.parse(res.text)).toEqual({ method: 'POST', body: '{"a":1}' });
    expect((await fetch(`${target.url}/gz`)).text).toBe('unzipped text');
    expect(target.hits[0]).toMatchObject({ path: '/items?x=1', headers: expect.objectContaining({ 'content-length': '7' }) });
  });

  it('sends a call again on a new connection when the kept-alive one it took was closed by the server, and only then', async () => {
    // answers the first request of each connection and keeps it open; a second request on it meets a closed socket
    // (RST), as when a server's keep-alive timeout closed it and a busy client had not read the close yet
    let connections = 0;
    const posts: string[] = [];
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      connections++;
      sockets.add(socket);
      let served = false;
      let received = '';
      socket.on('data', (d) => {
        if (served) return socket.resetAndDestroy();
        received += String(d);
        const [head, body = ''] = received.split('\r\n\r\n');
        if (!received.includes('\r\n\r\n') || body.length < Number(/content-length: (\d+)/i.exec(head!)?.[1] ?? 0)) return;
        served = true;
        posts.push(body);
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), ...limits });
      for (const body of ['one', 'two', 'three']) expect((await fetch(url, { method: 'POST', body })).text).toBe('ok');
      // each call after the first found its kept-alive connection closed and was sent once more, on a new one
      expect(connections).toBe(3);
      expect(posts).toEqual(['one', 'two', 'three']);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses a redirect to 127.0.0.1 when only the first address is allowed', async () => {
    const inside = await serve((_, res) => res.end('internal data'));
    const outside = await serve((_, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/admin` });
      res.end();
    }, '127.0.0.2');
    const fetch = make({ policy: OutboundPolicy.fromEntries(['127.0.0.2']), ...limits });
    const { outbound } = await rejection(fetch(`${outside.url}/start`));
    expect(outbound?.code).toBe('OUTBOUND_REFUSED');
    expect(outbound?.message).toContain('127.0.0.1, a loopback address');
    expect(outside.hits.map((h) => h.path)).toEqual(['/start']);
    expect(inside.hits).toHaveLength(0);
  });

  it('follows allowed redirects as fetch does: 303 turns POST into GET, credentials stay with their origin', async () => {
    const b = await serve((_, res) => res.end('landed'));
    const a = await serve((_, res, hit) => {
      res.writeHead(hit.path === '/post' ? 303 : 302, { location: hit.path === '/post' ? '/after' : `${b.url}/elsewhere` });
      res.end();
    });
    const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), ...limits });
    const res = await fetch(`${a.url}/post`, { method: 'POST', body: 'x', headers: { Authorization: 'Bearer t' } });
    expect(res.text).toBe('landed');
    expect(res.redirected).toBe(true);
    expect(a.hits.map((h) => [h.method, h.path, h.headers.authorization])).toEqual([
      ['POST', '/post', 'Bearer t'],
      ['GET', '/after', 'Bearer t'], // same origin keeps it
    ]);
    expect(b.hits.map((h) => [h.method, h.path, h.headers.authorization])).toEqual([['GET', '/elsewhere', undefined]]);
    expect((await fetch(`${a.url}/post`, { method: 'POST', body: 'x', redirect: 'manual' })).status).toBe(303);
  });

  it('stops reading a body over the size cap and closes the connection', async () => {
    const total = 64 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((r) => (closed = r));
    const target = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }); // chunked: no length announced
      res.on('close', closed);
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), timeoutMs: 30_000, maxBytes: 256 * 1024 });
    const { outbound } = await rejection(fetch(target.url));
    expect(outbound?.code).toBe('OUTBOUND_TOO_LARGE');
    expect(outbound?.message).toContain('262144 bytes');
    await connectionClosed;
    expect(written).toBeLessThan(total);
  });

  it('refuses at once a body whose announced length is over the cap', async () => {
    const target = await serve((_, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write('a');
    });
    const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), timeoutMs: 30_000, maxBytes: 1024 });
    const { outbound } = await rejection(fetch(target.url));
    expect(outbound).toMatchObject({ code: 'OUTBOUND_TOO_LARGE', message: expect.stringContaining('announces 52428800 bytes') });
  });

  it('gives up after the time limit, and a caller abort rejects with its reason', async () => {
    const target = await serve(() => {}); // never answers
    const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), timeoutMs: 200, maxBytes: 1024 });
    const { outbound } = await rejection(fetch(target.url));
    expect(outbound).toMatchObject({ code: 'OUTBOUND_TIMEOUT', message: expect.stringContaining('200 ms') });
    const controller = new AbortController();
    const slow = make({ policy: OutboundPolicy.fromEntries(['loopback']), timeoutMs: 60_000, maxBytes: 1024 });
    const pending = slow(target.url, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('gives up when the body stops coming before the time limit ends', async () => {
    const target = await serve((_, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial'); // and nothing more
    });
    const fetch = make({ policy: OutboundPolicy.fromEntries(['loopback']), timeoutMs: 300, maxBytes: 1024 });
    const { outbound } = await rejection(fetch(target.url));
    expect(outbound).toMatchObject({ code: 'OUTBOUND_TIMEOUT', message: expect.stringContaining('300 ms') });
  });
});

describe('outbound fetch in nodes', () => {
  it('is what the http-request node calls out with: a refused address fails the node in words', async () => {
    const sink = await serve((_, res) => res.end('{}'));
    const fetch = createOutboundFetch({ policy: new OutboundPolicy(), ...limits });
    const run = runNode(httpRequestNode, { url: `${sink.url}/write` }, { body: { a: 1 } }, testContext({ services: testServices({ fetch }) }));
    await expect(run).rejects.toMatchObject({
      code: 'HTTP_REQUEST_FAILED',
      message: expect.stringContaining('a loopback address (this machine): outbound calls to it are refused'),
    });
    expect(sink.hits).toHaveLength(0);
    const allowed = createOutboundFetch({ policy: OutboundPolicy.fromEntries(['127.0.0.1']), ...limits });
    const ok = await runNode(httpRequestNode, { url: `${sink.url}/write` }, { body: { a: 1 } }, testContext({ services: testServices({ fetch: allowed }) }));
    expect(ok.outputs.response).toMatchObject({ status: 200 });
    expect(sink.hits.map((h) => h.body)).toEqual(['{"a":1}']);
  });
});
