import { errorResponse } from '@/server/api/rest/handler';
import { getRuntime } from '@/server/runtime';
import { guard } from './guard';
import { rateLimitHeaders } from './rate-limit';

/** Rate-limit headers (and 429) for endpoints that need no key, such as the OpenAPI document. */
export async function publicRateLimit(req: Request): Promise<Record<string, string> | Response> {
  const g = await guard(await getRuntime(), req);
  const headers = rateLimitHeaders(g.rate);
  if (g.error?.code === 'RATE_LIMITED') return errorResponse(g.error, headers);
  return headers;
}
