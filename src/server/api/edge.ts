import { countByAddress, guard } from '@/server/auth/guard';
import type { Principal } from '@/server/auth/principal';
import { rateLimitHeaders } from '@/server/auth/rate-limit';
import { AppError } from '@/server/errors';
import { errorForLog, logger } from '@/server/logger';
import { getRuntime, type Runtime } from '@/server/runtime';
import { databaseUnavailable, isDatabaseUnavailable, retryOnStaleConnection } from '@/server/db/unavailable';
import { logOutage } from '@/server/db/outage-log';
import { limitBody } from './body';

/**
 * The one way into the service over HTTP. Every route handler — the REST adapter, tRPC, the webhook,
 * better-auth's endpoints, the OpenAPI document, and the SSE streams of agent and copilot chat — is
 * wrapped by `withApi`, which:
 *  1. opens the runtime (503 SERVICE_UNAVAILABLE with Retry-After when the database is not there);
 *  2. authenticates the caller and counts the request against its rate limit (`guard`);
 *  3. refuses a request over the limit (429), and, for `access: 'key'`, one without a principal (401/403);
 *  4. hands the handler the request with its body limited to MAX_BODY_BYTES (413 when read past it);
 *  5. runs the handler, turning an AppError into the spec's error body and anything else into a logged
 *     500 INTERNAL that shows no stack or SQL;
 *  6. puts the rate-limit headers on every response, errors and streams included.
 *
 * A handler builds a service's context with `serviceContext(edge.rt, edge.principal)` (for `key` access
 * the principal is typed as present). An SSE route is written like any other, e.g. agent chat:
 *
 *   export const POST = withApi('key', async (req, edge, { params }: { params: Promise<{ id: string }> }) => {
 *     const ctx = serviceContext(edge.rt, edge.principal);
 *     // checks (agent found, body valid) happen here, before the stream: they answer as JSON errors
 *     const events = await startAgentChat(ctx, (await params).id, await readJsonBody(req)); // AsyncIterable<{event, data}>
 *     return new Response(toEventStream(events), { headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
 *   });
 *
 * What fails before the Response is returned (unknown agent, bad body, rate limit) is an ordinary JSON
 * error; the headers are set before the first byte goes out, so the stream carries them too. A failure
 * during the stream is the stream's to report (an `error` event, then close): the status is already sent.
 */

export interface Edge {
  rt: Runtime;
  principal: Principal | null;
  /** Why there is no principal (missing, invalid or foreign credentials), for handlers that need one later. */
  authError?: AppError;
  /** The rate-limit headers of this request; the edge sets them on the response. */
  headers: Record<string, string>;
}

/**
 * `key`: a principal is required. `optional`: the handler decides (tRPC checks per procedure, and answers a
 * rate-limit refusal in its own error shape). `public`: no key needed.
 */
export type Access = 'key' | 'optional' | 'public';

/** The edge a handler gets: behind `key` access there is always a principal. */
export type EdgeOf<A extends Access> = A extends 'key' ? Edge & { principal: Principal } : Edge;

type Handler<A extends Access, R extends unknown[]> = (req: Request, edge: EdgeOf<A>, ...rest: R) => Promise<Response> | Response;

/** The edge over a given runtime (the server's own, or a test's). */
export function apiEdge(runtime: () => Promise<Runtime>) {
  return function withApi<A extends Access, R extends unknown[]>(access: A, handler: Handler<A, R>): (req: Request, ...rest: R) => Promise<Response> {
    return (req, ...rest) => handle(runtime, access, req, (r, edge) => handler(r, edge as EdgeOf<A>, ...rest));
  };
}

/** See the top of this file. */
export const withApi = apiEdge(getRuntime);

async function handle(
  runtime: () => Promise<Runtime>,
  access: Access,
  req: Request,
  handler: (req: Request, edge: Edge) => Promise<Response> | Response,
): Promise<Response> {
  let edge: Edge;
  let rt: Runtime | undefined;
  try {
    rt = await runtime();
    const open = rt;
    const g = await retryOnStaleConnection(() => guard(open, req));
    edge = { rt, principal: g.principal, authError: g.error, headers: rateLimitHeaders(g.rate) };
  } catch (e) {
    logOutage('request refused: the service is unavailable', { error: errorText(e) });
    // counted by address where the limiter still works (in memory, or Postgres's in-memory insurance)
    const rate = rt && (await countByAddress(rt, req).catch(() => undefined));
    return errorResponse(databaseUnavailable(), rate ? rateLimitHeaders(rate) : {});
  }
  // tRPC (`optional`) answers a 429 in its own shape (its client cannot read ours): the procedure throws it
  if (edge.authError?.code === 'RATE_LIMITED' && access !== 'optional') return errorResponse(edge.authError, edge.headers);
  if (access === 'key' && !edge.principal) {
    return errorResponse(edge.authError ?? new AppError('UNAUTHENTICATED', 'Authentication is required.'), edge.headers);
  }
  const body = limitBody(req);
  // a body refused at the limit was not read to its end: the connection cannot carry another request
  const headers = () => (body.refusal() ? { ...edge.headers, Connection: 'close' } : edge.headers);
  try {
    const res = await handler(body.req, edge);
    // a library that caught the refusal itself (better-auth answers 500) still answers 413
    const refusal = body.refusal();
    if (refusal && res.status >= 500) return errorResponse(refusal, headers());
    return withHeaders(res, headers());
  } catch (e) {
    if (e instanceof AppError) return errorResponse(e, headers());
    if (isDatabaseUnavailable(e)) {
      logOutage('request refused: the database is unavailable', { method: req.method, path: new URL(req.url).pathname, error: errorText(e) });
      return errorResponse(databaseUnavailable(), headers());
    }
    logger.error('request failed', { method: req.method, path: new URL(req.url).pathname, error: errorText(e) });
    return errorResponse(new AppError('INTERNAL', 'Internal server error.'), headers());
  }
}

export function errorResponse(err: AppError, headers: Record<string, string> = {}): Response {
  // a 503 says when to come back, whoever raised it
  const retry: Record<string, string> =
    err.status === 503 && !Object.keys(headers).some((k) => k.toLowerCase() === 'retry-after') ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : {};
  return Response.json(err.toBody(), { status: err.status, headers: { ...headers, ...retry } });
}

/** How long a client is told to wait while the database is away (Postgres restarts take a few seconds). */
const RETRY_AFTER_SECONDS = 2;

/** Sets headers on a response, copying it first when its headers are immutable (a redirect, a fetched body). */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  // a handler that applied a tighter limit of its own (agent chat) has set the rate-limit headers already
  const own = res.headers.has('X-RateLimit-Limit');
  try {
    for (const [k, v] of Object.entries(headers)) if (!(own && /^(x-ratelimit-|retry-after)/i.test(k))) res.headers.set(k, v);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) if (!(own && /^(x-ratelimit-|retry-after)/i.test(k))) copy.headers.set(k, v);
    return copy;
  }
}

function errorText(e: unknown): string {
  return errorForLog(e);
}
