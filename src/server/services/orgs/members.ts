import { and, asc, eq } from 'drizzle-orm';
import { members, organizations, users } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { type MemberRole, readInvitation, signInvitation } from './invitations';

export async function listMembers(ctx: ServiceContext) {
  const rows = await ctx.db
    .select({ user_id: members.userId, name: users.name, email: users.email, role: members.role, joined_at: members.createdAt })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.orgId, ctx.principal.orgId))
    .orderBy(asc(members.createdAt));
  return { members: rows.map((r) => ({ ...r, role: r.role as MemberRole, joined_at: r.joined_at.toISOString(), you: r.user_id === ctx.principal.userId })) };
}

/** The organization must keep an admin: the last one cannot be demoted or removed. */
async function refuseLastAdmin(ctx: ServiceContext, userId: string, what: string) {
  const admins = await ctx.db
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.orgId, ctx.principal.orgId), eq(members.role, 'admin')));
  if (admins.length === 1 && admins[0]!.userId === userId) {
    throw new AppError('LAST_ADMIN', `${what}: this is the organization's only admin. Make another member admin first.`);
  }
}

async function memberRole(ctx: ServiceContext, userId: string): Promise<MemberRole> {
  const [m] = await ctx.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.orgId, ctx.principal.orgId), eq(members.userId, userId)));
  if (!m) throw new AppError('MEMBER_NOT_FOUND', 'No such member of this organization.');
  return m.role as MemberRole;
}

export async function setMemberRole(ctx: ServiceContext, input: { user_id: string; role: MemberRole }) {
  const current = await memberRole(ctx, input.user_id);
  if (current === 'admin' && input.role !== 'admin') await refuseLastAdmin(ctx, input.user_id, 'Cannot change the role');
  await ctx.db
    .update(members)
    .set({ role: input.role })
    .where(and(eq(members.orgId, ctx.principal.orgId), eq(members.userId, input.user_id)));
  return listMembers(ctx);
}

export async function removeMember(ctx: ServiceContext, input: { user_id: string }) {
  const current = await memberRole(ctx, input.user_id);
  if (current === 'admin') await refuseLastAdmin(ctx, input.user_id, 'Cannot remove this member');
  await ctx.db.delete(members).where(and(eq(members.orgId, ctx.principal.orgId), eq(members.userId, input.user_id)));
  return listMembers(ctx);
}

/**
 * A link that lets the person with `email` join this organization with `role`: by signing up, or, when they
 * already have an account (in another organization), by signing in; they keep their other organizations.
 */
export async function inviteMember(ctx: ServiceContext, input: { email: string; role: MemberRole }) {
  const email = input.email.trim().toLowerCase();
  const [account] = await ctx.db
    .select({ id: users.id, orgId: members.orgId })
    .from(users)
    .leftJoin(members, and(eq(members.userId, users.id), eq(members.orgId, ctx.principal.orgId)))
    .where(eq(users.email, email));
  if (account?.orgId) throw new AppError('ALREADY_MEMBER', `${email} is already a member of this organization.`);
  const { token, expiresAt } = await signInvitation(ctx.db, { orgId: ctx.principal.orgId, role: input.role, email });
  return {
    token,
    path: `${account ? '/sign-in' : '/sign-up'}?invite=${token}`,
    email,
    role: input.role,
    existing_account: !!account,
    expires_at: expiresAt.toISOString(),
  };
}

/** What an invitation link offers, for the sign-up page: the organization, role and email, or why it does not work. */
export async function describeInvitation(ctx: Pick<ServiceContext, 'db'>, token: string) {
  const invitation = await readInvitation(ctx.db, token);
  if ('problem' in invitation) return { valid: false as const, problem: invitation.problem };
  const [org] = await ctx.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, invitation.orgId));
  if (!org) return { valid: false as const, problem: 'The organization of this invitation no longer exists.' };
  return { valid: true as const, organization: org.name, role: invitation.role, email: invitation.email, expires_at: invitation.expiresAt.toISOString() };
}
