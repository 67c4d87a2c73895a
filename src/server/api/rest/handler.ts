import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { appRouter } from '@/server/api/root';
import { createContext, type Context } from '@/server/api/trpc';
import { guard } from '@/server/auth/guard';
import { rateLimitHeaders } from '@/server/auth/rate-limit';
import { AppError, type ErrorBody } from '@/server/errors';
import { logger } from '@/server/logger';
import { getRuntime, type Runtime } from '@/server/runtime';
import { matchRoute, restRoutes } from './routes';

const MAX_BODY_BYTES = 2 * 1024 * 1024;
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
  } as never);
  return openApiHandler;
}

export function errorResponse(err: AppError, headers: Record<string, string> = {}): Response {
  return Response.json(err.toBody(), { status: err.status, headers });
}

/**
 * Serves /api/* for REST clients: authenticate, count against the rate limit, route, read the JSON body,
 * run the procedure through trpc-to-openapi, and answer every failure in the spec's error shape with the
 * rate-limit headers on every response.
 */
export async function handleRest(req: Request): Promise<Response> {
  let rt: Runtime;
  try {
    rt = await getRuntime();
  } catch (e) {
    logger.error('runtime unavailable', { error: String(e) });
    return errorResponse(new AppError('INTERNAL', 'The service is starting or unavailable.'));
  }
  const g = await guard(rt, req);
  const headers = rateLimitHeaders(g.rate);
  if (g.error && g.error.code === 'RATE_LIMITED') return errorResponse(g.error, headers);
  if (!g.principal) return errorResponse(g.error ?? new AppError('UNAUTHENTICATED', 'Authentication is required.'), headers);

  const url = new URL(req.url);
  const path = url.pathname.slice(ENDPOINT.length).replace(/\/+$/, '') || '/';
  const method = req.method.toUpperCase();
  const route = matchRoute(routes, method, path);
  if (route.kind === 'not-found') {
    return errorResponse(new AppError('NOT_FOUND', `No endpoint ${method} ${url.pathname}.`), headers);
  }
  if (route.kind === 'wrong-method') {
    return errorResponse(new AppError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`), {
      ...headers,
      Allow: route.allow.join(', '),
    });
  }

  let body: unknown = undefined;
  if (method !== 'GET' && method !== 'DELETE' && method !== 'HEAD') {
    const read = await readJsonBody(req);
    if (read instanceof AppError) return errorResponse(read, headers);
    body = read;
  }

  const ctx = createContext(rt, g.principal);
  const response = await invoke(req, url, path, body, ctx);
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  if (response.status < 400) return response;
  return errorResponse(await toErrorBody(response), Object.fromEntries(response.headers));
}

/** JSON body of a write request; an empty body (deploy, undeploy) counts as `{}`. */
async function readJsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) return new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
  if (text.trim() === '') return {};
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the request body as application/json (got "${type || 'no content type'}").`);
  }
  try {
    return JSON.parse(text);
  } catch {
    return new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
}

function invoke(req: Request, url: URL, path: string, body: unknown, ctx: Context): Promise<Response> {
  const headers = new Headers(req.headers);
  headers.set('content-type', 'application/json');
  const inner = new Proxy(req, {
    get(target, prop) {
      if (prop === 'url') return `${url.origin}${path}${url.search}`;
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
    void handlerFor()(inner as never, res as never);
  });
}

async function toErrorBody(response: Response): Promise<AppError> {
  const parsed = (await response.json().catch(() => null)) as { data?: { app?: ErrorBody['error'] } } | null;
  const app = parsed?.data?.app;
  if (app) return new AppError(app.code, app.message, app.details);
  if (response.status === 404) return new AppError('NOT_FOUND', 'Not found.');
  if (response.status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
  return new AppError('INTERNAL', 'Internal server error.');
}
