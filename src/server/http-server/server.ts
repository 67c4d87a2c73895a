import http from 'node:http';
import type { Duplex } from 'node:stream';
import next from 'next';
import { env } from '@/env';
import { AppError } from '@/server/errors';
import { rateLimitHeaders } from '@/server/auth/rate-limit';
import { errorForLog, logger } from '@/server/logger';
import { getRuntime, type Runtime } from '@/server/runtime';
import { clientAddress, compileTrust, pinClientAddress } from './client-address';
import { ownHandler } from './own-routes';
import { sendResponse, toRequest } from './web-bridge';

export interface HttpServerOptions {
  /** The project folder (where Next finds its build). */
  dir: string;
  port: number;
  hostname: string;
}

/**
 * One process's web server: the REST API, webhooks and the OpenAPI document answered on Node's request
 * directly by the edge and handlers of src/server/api (no Next routing in between), everything else —
 * pages, tRPC, better-auth, the reference page — by Next's request handler (Next's documented custom server).
 * The runtime (database, migrations, bootstrap, queue) must be open before it is called.
 */
export async function createHttpServer(opts: HttpServerOptions): Promise<http.Server> {
  const trust = compileTrust(env.TRUSTED_PROXIES);
  const app = next({ dev: false, dir: opts.dir, hostname: opts.hostname, port: opts.port });
  const nextHandle = app.getRequestHandler();
  await app.prepare();
  const rt = await getRuntime();
  const server = http.createServer((req, res) => {
    pinClientAddress(req, trust);
    const method = req.method ?? 'GET';
    if (REFUSED_METHODS.has(method)) return refuse(res, method);
    const own = ownHandler(method, pathOf(req.url));
    if (own) void serveOwn(own, req, res, method);
    else void nextHandle(req, res);
  });
  // Node closes an idle kept-alive connection after 5 s; a client (or a load balancer, commonly 60 s) that sends on
  // it just as it closes gets "other side closed". Idle connections stay open longer than clients keep them.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { remoteAddress?: string }) => void unreadable(rt, err, socket));
  return server;
}

/**
 * A request Node's parser could not read (an unknown method, a malformed line or header): answered in the spec's
 * error shape with the rate-limit headers, counted against the client's address as any anonymous request is,
 * instead of Node's empty 400.
 */
async function unreadable(rt: Runtime, err: NodeJS.ErrnoException, socket: Duplex & { remoteAddress?: string }): Promise<void> {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const method = err.code === 'HPE_INVALID_METHOD';
  const error = method
    ? new AppError('METHOD_NOT_ALLOWED', 'That HTTP method is not supported.')
    : new AppError(
        'VALIDATION_FAILED',
        `The request could not be read as HTTP (${err.code === 'HPE_HEADER_OVERFLOW' ? 'its headers are too large' : 'malformed request line or headers'}).`,
      );
  const rate = await rt.apiLimiter.consume(`ip:${socket.remoteAddress ?? 'unknown'}`).catch(() => undefined);
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...(rate ? rateLimitHeaders(rate) : {}),
    ...(method ? { Allow: ALLOWED_METHODS } : {}),
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  if (socket.writable) socket.end(`HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n${head}\r\n${body}`);
  else socket.destroy();
}

/** Methods no part of the app answers (the Fetch API cannot even represent them): 405 in the spec's shape, for every path. */
const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';

function refuse(res: http.ServerResponse, method: string): void {
  res.statusCode = 405;
  res.setHeader('content-type', 'application/json');
  res.setHeader('allow', ALLOWED_METHODS);
  res.end(JSON.stringify(new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed.`).toBody()));
}

async function serveOwn(handler: (req: Request) => Promise<Response>, req: http.IncomingMessage, res: http.ServerResponse, method: string) {
  try {
    await sendResponse(res, await handler(toRequest(req, res)), method);
  } catch (e) {
    // the edge answers every failure of a handler itself; this is a failure of the bridge
    logger.error('request failed', { method, path: pathOf(req.url), client: clientAddress(req, () => false), error: errorForLog(e) });
    if (res.headersSent) return void res.destroy();
    res.statusCode = 500;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(new AppError('INTERNAL', 'Internal server error.').toBody()));
  }
}

/** The path of a request target (origin-form or absolute-form), dot segments resolved as a URL parser does. */
function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return '/';
  }
}
