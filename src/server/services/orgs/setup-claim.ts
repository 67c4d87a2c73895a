import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { members, settings } from '@/server/db/schema';
import { putSetting } from '@/server/db/settings';

/**
 * The start-up organization (created at first start, or named by BOOTSTRAP_ORG_ID) has data and keys before
 * anyone signs in. Only a person holding the one-time setup token printed at start (or BOOTSTRAP_SETUP_TOKEN)
 * joins it, as its admin; on a shared database the first stranger to sign up must not. Only the token's hash is
 * stored, beside the organization it opens.
 */
const CLAIM = 'setup_claim';

const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * While `orgId` has no member: makes `token` (or a new one) the way in, replacing any earlier token. Returns the
 * token when this call generated it (to print), undefined when the organization already has members or the
 * token came from the environment.
 */
export async function offerSetupClaim(db: Db, orgId: string, token?: string): Promise<string | undefined> {
  const [row] = await db.select({ n: count() }).from(members).where(eq(members.orgId, orgId));
  if ((row?.n ?? 0) > 0) return undefined;
  const claim = token ?? `cfs_${randomBytes(24).toString('base64url')}`;
  await putSetting(db, CLAIM, JSON.stringify({ orgId, hash: digest(claim).toString('hex') }));
  return token ? undefined : claim;
}

/**
 * The organization `token` opens, consumed in `tx` (one use), or undefined when the token is absent, wrong,
 * already used, or its organization has gained a member since.
 */
export async function takeSetupClaim(tx: Db, token: string | null | undefined): Promise<string | undefined> {
  if (!token) return undefined;
  const [row] = await tx.select().from(settings).where(eq(settings.key, CLAIM)).for('update');
  if (!row) return undefined;
  const claim = JSON.parse(row.value) as { orgId: string; hash: string };
  const expected = Buffer.from(claim.hash, 'hex');
  const given = digest(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  await tx.delete(settings).where(eq(settings.key, CLAIM));
  const [joined] = await tx.select({ n: count() }).from(members).where(eq(members.orgId, claim.orgId));
  return (joined?.n ?? 0) === 0 ? claim.orgId : undefined;
}
