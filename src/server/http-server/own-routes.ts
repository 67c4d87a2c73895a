import { handleAuditExport } from '@/server/api/rest/audit-export';
import { handleRest } from '@/server/api/rest/handler';
import { handleWebhook } from '@/server/api/rest/webhook';
import { handleOpenApiDocument } from '@/server/api/rest/openapi-document';

type WebHandler = (req: Request) => Promise<Response>;

/** Paths under /api that stay with Next: tRPC (the UI's), better-auth, the reference page, and the liveness probe. */
const NEXT_PREFIXES = ['/api/trpc/', '/api/auth/', '/api/docs'];
const NEXT_PATHS = new Set(['/api/trpc', '/api/auth', '/api/health']);

/**
 * The handler our own server answers a request with, or undefined for Next's: the REST API, webhooks and
 * the OpenAPI document are ours (the same handlers Next's route files export, so `next dev` serves the same API).
 */
export function ownHandler(method: string, pathname: string): WebHandler | undefined {
  if (pathname !== '/api' && !pathname.startsWith('/api/')) return undefined;
  if (NEXT_PATHS.has(pathname) || NEXT_PREFIXES.some((p) => pathname.startsWith(p))) return undefined;
  if (pathname === '/api/openapi.json') return method === 'GET' || method === 'HEAD' ? handleOpenApiDocument : undefined;
  if (pathname === '/api/audit-events/export') return handleAuditExport;
  const webhook = /^\/api\/webhooks\/([^/]+)\/?$/.exec(pathname);
  if (webhook) {
    const pipelineId = decoded(webhook[1]!);
    return (req) => handleWebhook(req, { params: Promise.resolve({ pipelineId }) });
  }
  return handleRest;
}

/** A path segment decoded; one with broken %-encoding is kept as written (it then names nothing: 404). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
