import { adminProcedure, router } from '@/server/api/trpc';
import { searchAudit } from '@/server/services/audit/search';
import * as S from './audit.schema';

const list = adminProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/audit-events',
      tags: S.TAGS,
      summary: 'The audit trail: who did what, when, from where (admins only)',
      description:
        'Newest first. Sign-ins and failed sign-ins, key, member, pipeline, agent and connector changes, retries, and every read of an ' +
        'execution’s payloads, from the web app or the API. Append-only; kept AUDIT_RETENTION_DAYS (six years by default). Entries hold ' +
        'ids and names, never secrets or payloads. Needs the admin scope. FHIR R4 AuditEvent NDJSON: GET /audit-events/export.',
      protect: true,
    },
  })
  .input(S.AuditListInput)
  .output(S.AuditList)
  .query(({ ctx, input }) => searchAudit(ctx, input));

/** Settings → Audit log (issue 30 §3); the NDJSON export is a route handler of its own (rest/audit-export.ts). */
export const auditRouter = router({ list });
