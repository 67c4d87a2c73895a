import { randomUUID } from 'node:crypto';
import type { Db } from '@/server/db/client';
import { members, organizations } from '@/server/db/schema';
import { takeSetupClaim } from './setup-claim';

/**
 * A new user becomes admin of an organization: of the start-up one when they hold its one-time setup token
 * (see setup-claim.ts), else of a new one of their own.
 */
export async function onSignUp(db: Db, user: { id: string; name: string; email: string }, setupToken?: string | null): Promise<string> {
  return db.transaction(async (tx) => {
    const claimed = await takeSetupClaim(tx as unknown as Db, setupToken);
    const orgId = claimed ?? randomUUID();
    if (!claimed) await tx.insert(organizations).values({ id: orgId, name: `${user.name || user.email}'s organization` });
    await tx.insert(members).values({ orgId, userId: user.id, role: 'admin' });
    return orgId;
  });
}
