import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  idempotencyKey: string | null;
  body: unknown;
  at: number;
}

/**
 * A real HTTP server standing in for the outside system a pipeline writes to: it records every request
 * (with its Idempotency-Key) and answers `/slow` only after `slowMs`.
 */
export async function startSink(slowMs = 3000) {
  const received: Received[] = [];
  const waiters: { path: string; resolve: (r: Received) => void }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '',
        idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
        body: text ? JSON.parse(text) : null,
        at: Date.now(),
      };
      received.push(r);
      for (const w of waiters.filter((x) => x.path === r.path)) w.resolve(r);
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, path: r.path }));
      };
      if (r.path === '/slow') setTimeout(answer, slowMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    next(path: string): Promise<Received> {
      return new Promise((resolve) => waiters.push({ path, resolve }));
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
