import { hasScope } from '@/server/auth/scopes';
import { AppError } from '@/server/errors';
import { exportAuditNdjson } from '@/server/services/audit/export';
import { serviceContext } from '@/server/services/context';
import { AuditFilter } from '../routers/audit/audit.schema';
import { errorResponse, withApi } from '../edge';
import { parsed } from './agent-chat';

/**
 * GET /api/audit-events/export: the audit trail as FHIR R4 AuditEvent NDJSON (application/fhir+ndjson), streamed, for
 * the hospital's own audit store. Not JSON, so a route handler of its own; same edge as the rest of the API. The web
 * app's "Export" link reaches it with the session cookie. Needs the admin scope.
 */
export const handleAuditExport = withApi('key', async (req, edge) => {
  if (req.method !== 'GET') return errorResponse(new AppError('METHOD_NOT_ALLOWED', 'The audit export takes GET.'), { Allow: 'GET' });
  const ctx = serviceContext(edge.rt, edge.principal, edge.principal.kind === 'session' ? 'app' : 'api');
  if (!hasScope(ctx.principal.scopes, 'admin')) throw new AppError('FORBIDDEN', 'This key lacks the "admin" scope needed for the audit log.');
  const query = parsed(AuditFilter, Object.fromEntries(new URL(req.url).searchParams));
  const lines = exportAuditNdjson(ctx, query);
  const first = await lines.next(); // the export is recorded, and the first page read, before the status goes out
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(first.value));
      if (first.done) controller.close();
    },
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'Content-Type': 'application/fhir+ndjson',
      'Content-Disposition': `attachment; filename="clinflow-audit-${stamp}.ndjson"`,
      'Cache-Control': 'no-store',
    },
  });
});
