import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '@/server/db/client';
import { orgKey } from './org-keys';
import type { MemberRole } from '@/server/auth/roles';

/**
 * Invitations to an organization, as signed links: `cfi_<payload>.<mac>`, where the payload names the
 * organization, the role, the invited email and the expiry, and the MAC is HMAC-SHA256 under the
 * organization's own `invite` key. Nothing is stored: a link is checked by recomputing its MAC, works only
 * for the email it names, and ends at its expiry (a link cannot be withdrawn earlier: keep the 7 days short).
 */
export const INVITE_DAYS = 7;

export interface Invitation {
  orgId: string;
  role: MemberRole;
  email: string;
  expiresAt: Date;
}

export type { MemberRole };

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

async function mac(db: Db, orgId: string, payload: string): Promise<Buffer> {
  return createHmac('sha256', await orgKey(db, orgId, 'invite'))
    .update(payload)
    .digest();
}

export async function signInvitation(db: Db, invitation: Omit<Invitation, 'expiresAt'>, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + INVITE_DAYS * 86_400_000);
  const payload = b64(
    JSON.stringify({ o: invitation.orgId, r: invitation.role, e: invitation.email.toLowerCase(), x: Math.floor(expiresAt.getTime() / 1000) }),
  );
  return { token: `cfi_${payload}.${(await mac(db, invitation.orgId, payload)).toString('base64url')}`, expiresAt };
}

/** The invitation a token carries, or why it is not one: malformed, forged, or expired. */
export async function readInvitation(db: Db, token: string, now = new Date()): Promise<Invitation | { problem: string }> {
  const m = /^cfi_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token.trim());
  if (!m) return { problem: 'This is not an invitation link.' };
  let claims: { o?: unknown; r?: unknown; e?: unknown; x?: unknown };
  try {
    claims = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { problem: 'This is not an invitation link.' };
  }
  const { o, r, e, x } = claims;
  if (typeof o !== 'string' || typeof e !== 'string' || typeof x !== 'number' || !['admin', 'member', 'viewer'].includes(r as string)) {
    return { problem: 'This is not an invitation link.' };
  }
  const expected = await mac(db, o, m[1]!);
  const given = Buffer.from(m[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'This invitation link is not valid.' };
  if (x * 1000 < now.getTime()) return { problem: 'This invitation has expired: ask for a new one.' };
  return { orgId: o, role: r as MemberRole, email: e, expiresAt: new Date(x * 1000) };
}
