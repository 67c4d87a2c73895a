import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A FHIR server's outage in front of a real one: while `down`, every other request is refused (503) and the rest are
 * passed on but their answer lost (502 to the client after the server did the work) — the outage that doubles writes
 * when a retry is not idempotent. Up, it passes everything through.
 */
export async function startFlakyProxy(target: string) {
  let down = false;
  let seen = 0;
  /** Requests passed on while down whose answer the client never got. */
  let lost = 0;
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const refuse = down && seen++ % 2 === 0;
      if (refuse) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      const path = upstream.pathname.replace(/\/$/, '') + (req.url ?? '/').slice(prefix.length);
      const headers = { ...req.headers, host: upstream.host };
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          if (down) {
            lost++;
            return void res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
        });
      });
      out.on('error', () => res.writeHead(502).end());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const prefix = '/fhir';
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;
  return {
    url,
    set down(v: boolean) {
      down = v;
    },
    get lost() {
      return lost;
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
