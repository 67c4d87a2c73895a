import { and, asc, eq } from 'drizzle-orm';
import { members, organizations, sessions, users } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { ServiceContext } from '../context';
import { type MemberRole, readInvitation } from './invitations';

/**
 * The organizations a person belongs to, and which one their browser session acts in. A browser session's
 * active organization is kept on its session row (sessions.active_org_id) and resolved, membership checked, on
 * every request in one place: sessionPrincipal in src/server/auth/guard.ts. API keys stay bound to their own.
 */

/** A browser session's user and session; API keys are refused (they belong to one organization for good). */
function sessionOf(ctx: ServiceContext): { userId: string; sessionId: string } {
  const { kind, userId, sessionId } = ctx.principal;
  if (kind !== 'session' || !userId || !sessionId) {
    throw new AppError('FORBIDDEN', 'An API key belongs to its own organization: only a signed-in person can switch organization.');
  }
  return { userId, sessionId };
}

/** Every organization the caller is a member of (an API key: its own), the active one marked. */
export async function listMyOrganizations(ctx: ServiceContext) {
  const { userId } = ctx.principal;
  if (ctx.principal.kind !== 'session' || !userId) {
    const [org] = await ctx.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, ctx.principal.orgId));
    return { organizations: [{ id: ctx.principal.orgId, name: org?.name ?? ctx.principal.orgId, role: null, active: true }] };
  }
  const rows = await ctx.db
    .select({ id: organizations.id, name: organizations.name, role: members.role })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.orgId))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt));
  return { organizations: rows.map((r) => ({ ...r, role: r.role as MemberRole | null, active: r.id === ctx.principal.orgId })) };
}

/** Makes `orgId` the session's active organization; refused (403) unless the caller is a member of it. */
async function activate(ctx: ServiceContext, orgId: string) {
  const { userId, sessionId } = sessionOf(ctx);
  const [m] = await ctx.db
    .select({ name: organizations.name, role: members.role })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.orgId))
    .where(and(eq(members.userId, userId), eq(members.orgId, orgId)));
  if (!m) throw new AppError('FORBIDDEN', 'You are not a member of that organization.');
  await ctx.db
    .update(sessions)
    .set({ activeOrgId: orgId })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
  return { organization: { id: orgId, name: m.name }, role: m.role as MemberRole };
}

/** Switches the browser session to another organization of the caller's (every later request acts in it). */
export async function switchOrganization(ctx: ServiceContext, input: { org_id: string }) {
  return activate(ctx, input.org_id);
}

/**
 * A signed-in person accepts an invitation for their email: they join the inviting organization with the
 * invitation's role (keeping their other organizations; a member already keeps their role) and their session
 * switches to it.
 */
export async function acceptInvitation(ctx: ServiceContext, input: { token: string }) {
  const { userId } = sessionOf(ctx);
  const invitation = await readInvitation(ctx.db, input.token);
  if ('problem' in invitation) throw new AppError('INVITATION_INVALID', invitation.problem);
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (user?.email.toLowerCase() !== invitation.email) {
    throw new AppError('FORBIDDEN', `This invitation is for ${invitation.email}; you are signed in as ${user?.email ?? 'someone else'}.`);
  }
  const [org] = await ctx.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, invitation.orgId));
  if (!org) throw new AppError('INVITATION_INVALID', 'The organization of this invitation no longer exists.');
  await ctx.db.insert(members).values({ orgId: org.id, userId, role: invitation.role }).onConflictDoNothing();
  return activate(ctx, org.id);
}
