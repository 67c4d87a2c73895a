import { and, asc, lte } from 'drizzle-orm';
import { auditEvents } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { toFhirAuditEvent } from './fhir';
import { recordAudit } from './record';
import { auditWhere, type AuditQuery } from './search';

const PAGE = 500;

/**
 * The organization's matching entries, oldest first, as FHIR R4 AuditEvent resources, one JSON line each (NDJSON, as
 * FHIR bulk data ships them). The export is itself recorded first. Read a page at a time up to the moment it began,
 * so entries written meanwhile neither shift the pages nor join the file.
 */
export async function* exportAuditNdjson(ctx: ServiceContext, q: AuditQuery): AsyncGenerator<string> {
  const filters = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>;
  await recordAudit(ctx, { action: 'audit.export', objectType: 'audit', objectName: 'FHIR AuditEvent NDJSON', detail: filters });
  const asOf = new Date();
  const where = and(auditWhere(ctx, q), lte(auditEvents.at, asOf));
  for (let offset = 0; ; offset += PAGE) {
    const rows = await ctx.db.select().from(auditEvents).where(where).orderBy(asc(auditEvents.at), asc(auditEvents.id)).limit(PAGE).offset(offset);
    if (rows.length) yield rows.map((r) => `${JSON.stringify(toFhirAuditEvent(r))}\n`).join('');
    if (rows.length < PAGE) return;
  }
}
