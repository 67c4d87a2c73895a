import { and, count, desc, eq, gte, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { auditEvents } from '@/server/db/schema';
import type { ServiceContext } from '../context';

export interface AuditQuery {
  since?: string;
  until?: string;
  /** An action (`execution.read`) or all actions of a kind (`pipeline`, `session`). */
  action?: string;
  /** The actor's id, or text found in their name (email or key name). */
  actor?: string;
  object_id?: string;
  outcome?: 'success' | 'failure';
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** The organization's entries that match, as SQL conditions. */
export function auditWhere(ctx: ServiceContext, q: AuditQuery): SQL {
  const where: SQL[] = [eq(auditEvents.orgId, ctx.principal.orgId)];
  if (q.since) where.push(gte(auditEvents.at, new Date(q.since)));
  if (q.until) where.push(lt(auditEvents.at, new Date(q.until)));
  // a bare word is the actions of that kind (`session` → session.sign-in, session.sign-in-failed); the schema allows only [a-z-]
  if (q.action) where.push(q.action.includes('.') ? eq(auditEvents.action, q.action) : like(auditEvents.action, `${q.action}.%`));
  if (q.actor) {
    const pattern = `%${q.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(eq(auditEvents.actorId, q.actor), sql`${auditEvents.actorName} ilike ${pattern}`)!);
  }
  if (q.object_id) where.push(eq(auditEvents.objectId, q.object_id));
  if (q.outcome) where.push(eq(auditEvents.outcome, q.outcome));
  return and(...where)!;
}

/** The entry as the API shows it (snake_case, ISO times). */
export function toAuditView(r: AuditRow) {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: { type: r.actorType, id: r.actorId, name: r.actorName },
    action: r.action,
    outcome: r.outcome,
    object: { type: r.objectType, id: r.objectId, name: r.objectName },
    address: r.address,
    channel: r.channel,
    detail: r.detail ?? {},
  };
}

/** Settings → Audit log and GET /api/audit-events: newest first, filtered, paged. */
export async function searchAudit(ctx: ServiceContext, q: AuditQuery & { limit: number; offset: number }) {
  const where = auditWhere(ctx, q);
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.at), desc(auditEvents.id)).limit(q.limit).offset(q.offset),
    ctx.db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  return { events: rows.map(toAuditView), total_count: totals[0]?.n ?? 0 };
}
