import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { members, organizations } from '@/server/db/schema';
import { readInvitation } from './invitations';
import { takeSetupClaim } from './setup-claim';

/**
 * A new user joins an organization: the start-up one as its admin when they hold its one-time setup token
 * (see setup-claim.ts), the one that invited their email with the invitation's role (invitations.ts), else a
 * new one of their own as its admin.
 */
export async function onSignUp(
  db: Db,
  user: { id: string; name: string; email: string },
  tokens: { setup?: string | null; invite?: string | null } = {},
): Promise<string> {
  // an invitation names the email it is for: anyone else signing up with the link gets an organization of their own
  const invited = tokens.invite ? await readInvitation(db, tokens.invite) : undefined;
  const invitation = invited && !('problem' in invited) && invited.email === user.email.toLowerCase() ? invited : undefined;
  return db.transaction(async (tx) => {
    const claimed = await takeSetupClaim(tx, tokens.setup);
    if (claimed) {
      await tx.insert(members).values({ orgId: claimed, userId: user.id, role: 'admin' });
      return claimed;
    }
    if (invitation) {
      const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, invitation.orgId));
      if (org) {
        await tx.insert(members).values({ orgId: org.id, userId: user.id, role: invitation.role });
        return org.id;
      }
    }
    const orgId = randomUUID();
    await tx.insert(organizations).values({ id: orgId, name: `${user.name || user.email}'s organization` });
    await tx.insert(members).values({ orgId, userId: user.id, role: 'admin' });
    return orgId;
  });
}
