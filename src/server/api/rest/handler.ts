import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { appRouter } from '@/server/api/root';
import { createContext, type Context } from '@/server/api/trpc';
import { AppError, type ErrorBody } from '@/server/errors';
import { readJsonBody } from '../body';
import { errorResponse, withApi } from '../edge';
import { rateLimitHeaders } from '@/server/auth/rate-limit';
import { consumeUserLimit, userLimitRefusal } from '@/server/auth/user-limits';
import { streamedChat, userLimitOf } from './agent-chat';
import { matchRoute, restRoutes } from './routes';

const ENDPOINT = '/api';

const routes = restRoutes(appRouter);

type NodeHandler = ReturnType<typeof createOpenApiNodeHttpHandler>;
let openApiHandler: NodeHandler | undefined;

/** trpc-to-openapi's handler, made once (its fetch adapter rebuilds it on every request). */
function handlerFor(): NodeHandler {
  openApiHandler ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }: { req: { ctx: Context } }) => req.ctx,
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) =>
      errors.length === 0 && ctx ? { status: ctx.response.status, headers: ctx.response.headers } : {},
  } as never); // trpc-to-openapi types createContext for its own request type; ours carries the context already
  return openApiHandler;
}

/**
 * Serves /api/* for REST clients, behind the edge (authentication, rate limit, error shape, headers):
 * route, read the JSON body, run the procedure through trpc-to-openapi, and answer its failures in the
 * spec's error shape.
 */
export const handleRest = withApi('key', async (req, edge) => {
  const url = new URL(req.url);
  const path = url.pathname.slice(ENDPOINT.length).replace(/\/+$/, '') || '/';
  const method = req.method.toUpperCase();
  const route = matchRoute(routes, method, path);
  if (route.kind === 'not-found') throw new AppError('NOT_FOUND', `No endpoint ${method} ${url.pathname}.`);
  if (route.kind === 'wrong-method') {
    return errorResponse(new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`), { Allow: route.allow.join(', ') });
  }
  const body = method !== 'GET' && method !== 'DELETE' && method !== 'HEAD' ? await readJsonBody(req) : undefined;
  // agent chat and the copilot have their own, tighter limits (per user or key); their headers are the ones the response carries
  let limit: Record<string, string> = {};
  const userLimit = userLimitOf(method, path);
  if (userLimit) {
    const rate = await consumeUserLimit(edge.rt, edge.principal, userLimit);
    limit = rateLimitHeaders(rate);
    if (!rate.allowed) return errorResponse(userLimitRefusal(rate, userLimit), limit);
  }
  if (userLimit === 'chat' || (userLimit === 'copilot' && path === '/copilot/chat')) {
    const stream = await streamedChat(edge.rt, edge.principal, path, body).catch((e: unknown) =>
      e instanceof AppError ? errorResponse(e, limit) : Promise.reject(e),
    );
    if (stream) return withLimit(stream, limit);
  }
  const response = await invoke(req, url, path, body, createContext(edge.rt, edge.principal));
  if (response.status < 400) return withLimit(response, limit);
  return errorResponse(await toErrorBody(response), { ...Object.fromEntries(response.headers), ...limit });
});

function withLimit(res: Response, limit: Record<string, string>): Response {
  for (const [k, v] of Object.entries(limit)) res.headers.set(k, v);
  return res;
}

function invoke(req: Request, url: URL, path: string, body: unknown, ctx: Context): Promise<Response> {
  const headers = new Headers(req.headers);
  headers.set('content-type', 'application/json');
  const query = queryOf(url);
  const inner = new Proxy(req, {
    get(target, prop) {
      if (prop === 'url') return `${url.origin}${path}${url.search}`;
      if (prop === 'query') return query;
      if (prop === 'body') return body;
      if (prop === 'headers') return headers;
      if (prop === 'ctx') return ctx;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Promise((resolve) => {
    const out = new Headers();
    let status = 200;
    const res = {
      setHeader: (k: string, v: string | string[]) => (Array.isArray(v) ? v.forEach((x) => out.append(k, x)) : out.set(k, v)),
      get statusCode() {
        return status;
      },
      set statusCode(s: number) {
        status = s;
      },
      end: (text?: string) => {
        const empty = status === 204 || text === undefined;
        if (empty) out.delete('content-type');
        resolve(new Response(empty ? null : text, { status, headers: out }));
      },
    };
    // the node handler takes IncomingMessage/ServerResponse; these are their shapes as it reads and writes them
    void handlerFor()(inner as never, res as never);
  });
}

/**
 * The query string as trpc-to-openapi reads it (each name's values), in an object without a prototype: its own
 * parser fails on a parameter named `__proto__` or `constructor`.
 */
function queryOf(url: URL): Record<string, string[]> {
  const query = Object.create(null) as Record<string, string[]>;
  url.searchParams.forEach((value, key) => (query[key] ??= []).push(value));
  return query;
}

async function toErrorBody(response: Response): Promise<AppError> {
  const parsed = (await response.json().catch(() => null)) as { data?: { app?: ErrorBody['error'] } } | null;
  const app = parsed?.data?.app;
  if (app) return new AppError(app.code, app.message, app.details);
  if (response.status === 404) return new AppError('NOT_FOUND', 'Not found.');
  if (response.status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
  return new AppError('INTERNAL', 'Internal server error.');
}
