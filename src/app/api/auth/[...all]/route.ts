import { publicRateLimit } from '@/server/auth/public-rate-limit';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

/** better-auth's endpoints (sign-up, sign-in, session), with the API's rate-limit headers. */
async function handle(req: Request) {
  const headers = await publicRateLimit(req);
  if (headers instanceof Response) return headers;
  const rt = await getRuntime();
  const res = await rt.auth.handler(req);
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

export const GET = handle;
export const POST = handle;
