import { openApiDocument } from '@/server/api/openapi';
import { publicRateLimit } from '@/server/auth/public-rate-limit';

export const dynamic = 'force-dynamic';

/** The REST reference, readable without a key (it holds no organization data). */
export async function GET(req: Request) {
  const headers = await publicRateLimit(req);
  if (headers instanceof Response) return headers;
  return Response.json(openApiDocument(), { headers });
}
