import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '@/server/api/root';
import { errorResponse } from '@/server/api/rest/handler';
import { createContext } from '@/server/api/trpc';
import { guard } from '@/server/auth/guard';
import { rateLimitHeaders } from '@/server/auth/rate-limit';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

/** The web app's typed API: same procedures, same authentication and rate limit as REST. */
async function handle(req: Request) {
  const rt = await getRuntime();
  const g = await guard(rt, req);
  const headers = rateLimitHeaders(g.rate);
  if (g.error?.code === 'RATE_LIMITED') return errorResponse(g.error, headers);
  const res = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createContext(rt, g.principal, g.error),
  });
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

export const GET = handle;
export const POST = handle;
