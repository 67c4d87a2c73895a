import { and, asc, sql } from 'drizzle-orm';
import { auditEvents } from '@/server/db/schema';
import type { ServiceContext } from '../context';
import { toFhirAuditEvent } from './fhir';
import { recordAudit } from './record';
import { auditWhere, type AuditQuery } from './search';

const PAGE = 500;

/**
 * The organization's matching entries, oldest first, as FHIR R4 AuditEvent resources, one JSON line each (NDJSON, as
 * FHIR bulk data ships them). The export is itself recorded first, and is the file's last entry when the filters
 * match it: the file ends at that entry, in the order it is read (time, then id), so entries written meanwhile
 * neither shift the pages nor join the file.
 *
 * The end is the entry itself, compared in the database, not a time taken by the app: the entry's time is the
 * database's clock to the microsecond, a `new Date()` after it the app's to the millisecond. Under a millisecond
 * after the insert (a fast commit) that Date was still before the entry, and the export left itself out; an app
 * clock behind the database's leaves out more, one ahead lets later entries in.
 */
export async function* exportAuditNdjson(ctx: ServiceContext, q: AuditQuery): AsyncGenerator<string> {
  const filters = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const own = await recordAudit(ctx, { action: 'audit.export', objectType: 'audit', objectName: 'FHIR AuditEvent NDJSON', detail: filters });
  const upToOwn = sql`(${auditEvents.at}, ${auditEvents.id}) <= (select own.at, own.id from ${auditEvents} own where own.id = ${own})`;
  const where = and(auditWhere(ctx, q), upToOwn);
  for (let offset = 0; ; offset += PAGE) {
    const rows = await ctx.db.select().from(auditEvents).where(where).orderBy(asc(auditEvents.at), asc(auditEvents.id)).limit(PAGE).offset(offset);
    if (rows.length) yield rows.map((r) => `${JSON.stringify(toFhirAuditEvent(r))}\n`).join('');
    if (rows.length < PAGE) return;
  }
}
