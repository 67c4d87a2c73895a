import { hasScope } from '@/server/auth/scopes';
import { AppError } from '@/server/errors';
import { serviceContext } from '@/server/services/context';
import { receiveWebhook } from '@/server/services/executions/webhook';
import { parseJson } from '../body';
import { errorResponse, withApi } from '../edge';

const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'x-organization-id']);

/**
 * POST /api/webhooks/{pipelineId}: any body (JSON arrives parsed; HL7 v2, XML or CSV as text), so this
 * is a route handler of its own rather than a JSON-only tRPC procedure. Same edge as the rest of the
 * API (key, rate limit, body limit, error shape, headers); 202 with the execution id.
 */
export const handleWebhook = withApi('key', async (req, edge, { params }: { params: Promise<{ pipelineId: string }> }) => {
  if (req.method !== 'POST') return errorResponse(new AppError('METHOD_NOT_ALLOWED', 'Webhooks take POST.'), { Allow: 'POST' });
  const ctx = serviceContext(edge.rt, edge.principal);
  if (!hasScope(ctx.principal.scopes, 'execute')) throw new AppError('FORBIDDEN', 'This key lacks the "execute" scope needed for webhooks.');
  const text = await req.text();
  const json = /\bjson\b/i.test(req.headers.get('content-type') ?? '') && text.trim() !== '';
  const url = new URL(req.url);
  const visible = Object.fromEntries([...req.headers].filter(([k]) => !HIDDEN_HEADERS.has(k.toLowerCase())));
  const call = { pipelineId: (await params).pipelineId, body: json ? parseJson(text) : text, headers: visible, query: Object.fromEntries(url.searchParams) };
  return Response.json(await receiveWebhook(ctx, call), { status: 202 });
});
