import { eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { members, users } from '@/server/db/schema';
import { appendAudit } from './record';

/**
 * Records a sign-in attempt in every organization the account belongs to (each one's admins see who came in, or
 * tried to); an attempt at an address that names no user is kept without an organization. Never the password.
 */
export async function auditSignIn(db: Db, attempt: { email: string; ok: boolean; userId?: string; address: string }): Promise<void> {
  const rows = await db
    .select({ userId: users.id, orgId: members.orgId })
    .from(users)
    .leftJoin(members, eq(members.userId, users.id))
    .where(attempt.userId ? eq(users.id, attempt.userId) : eq(users.email, attempt.email));
  const orgs = rows.length ? rows.map((r) => ({ orgId: r.orgId, userId: r.userId })) : [{ orgId: null, userId: null }];
  const entry = {
    action: attempt.ok ? 'session.sign-in' : 'session.sign-in-failed',
    outcome: attempt.ok ? ('success' as const) : ('failure' as const),
    objectType: 'user',
    objectName: attempt.email,
    detail: attempt.ok ? undefined : { reason: 'invalid email or password' },
  };
  for (const o of orgs) {
    const actor = { orgId: o.orgId, type: 'user' as const, id: o.userId, name: attempt.email, address: attempt.address, channel: 'app' };
    await appendAudit(db, actor, { ...entry, objectId: o.userId });
  }
}
