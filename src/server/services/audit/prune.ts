import { lt, sql } from 'drizzle-orm';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { auditEvents } from '@/server/db/schema';

const DAY_MS = 86_400_000;

/**
 * Removes audit entries past AUDIT_RETENTION_DAYS — the only deletion the append-only trigger lets through: it sets
 * clinflow.audit_prune for its own transaction, so no other statement of the app (nor of this connection later) can
 * delete or change an entry. Run by the retention pruner at the end of each pass.
 */
export async function pruneAudit(db: Db, now = new Date(), days = env.AUDIT_RETENTION_DAYS): Promise<number> {
  const before = new Date(now.getTime() - days * DAY_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('clinflow.audit_prune', 'on', true)`);
    const gone = await tx.delete(auditEvents).where(lt(auditEvents.at, before)).returning({ id: auditEvents.id });
    return gone.length;
  });
}
