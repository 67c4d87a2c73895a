import { randomUUID } from 'node:crypto';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { apiKeys, members, organizations } from '@/server/db/schema';

/**
 * A new user becomes admin of an organization: of the one that start-up created if nobody has joined
 * it yet (so the first person to sign up sees what the printed admin key created), else of a new one.
 */
export async function onSignUp(db: Db, user: { id: string; name: string; email: string }): Promise<string> {
  return db.transaction(async (tx) => {
    const [memberCount] = await tx.select({ n: count() }).from(members);
    if ((memberCount?.n ?? 0) === 0) {
      const [org] = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .innerJoin(apiKeys, and(eq(apiKeys.orgId, organizations.id), isNotNull(apiKeys.id)))
        .orderBy(organizations.createdAt)
        .limit(1);
      if (org) {
        await tx.insert(members).values({ orgId: org.id, userId: user.id, role: 'admin' });
        return org.id;
      }
    }
    const orgId = randomUUID();
    await tx.insert(organizations).values({ id: orgId, name: `${user.name || user.email}'s organization` });
    await tx.insert(members).values({ orgId, userId: user.id, role: 'admin' });
    return orgId;
  });
}
