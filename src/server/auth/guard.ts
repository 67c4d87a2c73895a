import { and, eq, sql } from 'drizzle-orm';
import { members, sessions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { Runtime } from '@/server/runtime';
import { authenticateApiKey } from './api-keys';
import { type MemberRole, ROLE_SCOPES } from './roles';
import type { Principal } from './principal';
import type { RateLimitResult } from './rate-limit';

export interface GuardResult {
  principal: Principal | null;
  /** Why there is no principal (missing, invalid or foreign credentials). */
  error?: AppError;
  rate: RateLimitResult;
}

/**
 * Authenticates a request (API key, else browser session) and counts it against its organization's rate
 * limit; requests that do not authenticate are counted per client address instead, so a stranger cannot
 * use up an organization's budget.
 */
export async function guard(rt: Runtime, req: Request): Promise<GuardResult> {
  let principal: Principal | null = null;
  let error: AppError | undefined;
  try {
    principal = await authenticate(rt, req);
    if (principal) principal = { ...principal, address: clientAddress(req) };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    error = e;
  }
  const rate = await rt.apiLimiter.consume(rateKey(principal, req));
  if (!rate.allowed) {
    const error = new AppError('RATE_LIMITED', `Too many requests: the rate limit is exceeded; try again in ${rate.retryAfter} s.`, {
      retry_after: rate.retryAfter,
    });
    return { principal: null, rate, error };
  }
  return { principal, error, rate };
}

/** Counts a request that could not be authenticated (the database is away) against its client address. */
export function countByAddress(rt: Runtime, req: Request): Promise<RateLimitResult> {
  return rt.apiLimiter.consume(rateKey(null, req));
}

/**
 * Whose budget a request counts against: an API key's organization (the spec's 1,000/min per
 * organization), a browser user's own (so API clients using up the organization's budget cannot lock
 * people out of the app), or, without credentials, the client address.
 */
function rateKey(principal: Principal | null, req: Request): string {
  if (!principal) return `ip:${clientAddress(req)}`;
  return principal.kind === 'session' && principal.userId ? `user:${principal.userId}` : `org:${principal.orgId}`;
}

async function authenticate(rt: Runtime, req: Request): Promise<Principal | null> {
  const authorization = req.headers.get('authorization');
  const orgHeader = req.headers.get('x-organization-id');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw new AppError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <API key>".');
    return authenticateApiKey(rt.db, match[1], orgHeader, rt.keyCache);
  }
  if (req.headers.get('cookie')?.includes('better-auth')) {
    const session = await rt.auth.api.getSession({ headers: req.headers });
    if (session) return sessionPrincipal(rt, session.session.id, session.user.id, orgHeader);
  }
  throw new AppError('UNAUTHENTICATED', 'Authentication is required: send "Authorization: Bearer <API key>".');
}

/**
 * The organization a browser session acts in, resolved here and nowhere else: the one named by X-Organization-ID
 * when sent, else the session's active organization (switchOrganization sets it), else the first one joined.
 * Membership is read on every request, so a person removed from the active organization falls back to another
 * of theirs at once, and naming one they are not a member of is refused.
 */
async function sessionPrincipal(rt: Runtime, sessionId: string, userId: string, orgHeader: string | null): Promise<Principal> {
  const active = sql`coalesce(${members.orgId} = (select ${sessions.activeOrgId} from ${sessions} where ${sessions.id} = ${sessionId}), false)`;
  const rows = await rt.db
    .select({ orgId: members.orgId, role: members.role })
    .from(members)
    .where(orgHeader ? and(eq(members.userId, userId), eq(members.orgId, orgHeader)) : eq(members.userId, userId))
    .orderBy(sql`${active} desc`, members.createdAt)
    .limit(1);
  const m = rows[0];
  if (!m) throw new AppError('FORBIDDEN', 'You are not a member of that organization.');
  return { kind: 'session', orgId: m.orgId, userId, sessionId, scopes: ROLE_SCOPES[m.role as MemberRole] ?? ROLE_SCOPES.viewer };
}

function clientAddress(req: Request): string {
  return req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || req.headers.get('x-real-ip') || 'local';
}
