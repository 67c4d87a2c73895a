import { guard } from '@/server/auth/guard';
import { rateLimitHeaders } from '@/server/auth/rate-limit';
import { hasScope } from '@/server/auth/scopes';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import { getRuntime } from '@/server/runtime';
import { receiveWebhook } from '@/server/services/executions/webhook';
import { errorResponse } from './handler';

const MAX_BODY_BYTES = 2 * 1024 * 1024;
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'x-organization-id']);

/**
 * POST /api/webhooks/{pipelineId}: any body (JSON arrives parsed; HL7 v2, XML or CSV as text), so this
 * is a route handler of its own rather than a JSON-only tRPC procedure. Same key, scope and rate limit
 * rules as the rest of the API; 202 with the execution id.
 */
export async function handleWebhook(req: Request, { params }: { params: Promise<{ pipelineId: string }> }): Promise<Response> {
  const rt = await getRuntime();
  const g = await guard(rt, req);
  const headers = rateLimitHeaders(g.rate);
  const fail = (e: AppError, extra: Record<string, string> = {}) => errorResponse(e, { ...headers, ...extra });
  if (g.error?.code === 'RATE_LIMITED' || !g.principal) return fail(g.error ?? new AppError('UNAUTHENTICATED', 'Authentication is required.'));
  if (req.method !== 'POST') return fail(new AppError('METHOD_NOT_ALLOWED', 'Webhooks take POST.'), { Allow: 'POST' });
  if (!hasScope(g.principal.scopes, 'execute')) return fail(new AppError('FORBIDDEN', 'This key lacks the "execute" scope needed for webhooks.'));
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) return fail(new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes.`));
  let body: unknown = text;
  if (/\bjson\b/i.test(req.headers.get('content-type') ?? '') && text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      return fail(new AppError('INVALID_JSON', 'The request body is not valid JSON.'));
    }
  }
  const url = new URL(req.url);
  const visible = Object.fromEntries([...req.headers].filter(([k]) => !HIDDEN_HEADERS.has(k.toLowerCase())));
  try {
    const result = await receiveWebhook(
      { db: rt.db, principal: g.principal, queue: rt.queue },
      { pipelineId: (await params).pipelineId, body, headers: visible, query: Object.fromEntries(url.searchParams) },
    );
    return Response.json(result, { status: 202, headers });
  } catch (e) {
    if (e instanceof AppError) return fail(e);
    logger.error('webhook failed', { error: String((e as Error)?.stack ?? e) });
    return fail(new AppError('INTERNAL', 'Internal server error.'));
  }
}
