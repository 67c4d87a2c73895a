import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { RateLimiter } from './rate-limit';

const SIGN_IN = '/sign-in/email';
const SIGN_UP = '/sign-up/email';

/** The attempts that count: every sign-in and sign-up per client address, failed sign-ins per account. */
export interface SignInLimiters {
  /** Every attempt, per client address (the address our server worked out: X-Forwarded-For only from TRUSTED_PROXIES). */
  byAddress: RateLimiter;
  /** Failed sign-ins per account (email), whichever addresses they come from. */
  byAccount: RateLimiter;
}

/**
 * better-auth hooks that limit sign-in by address and by account, counted in the shared store (Postgres
 * across processes), so neither a new X-Forwarded-For per request nor a new address per attempt gets more
 * guesses at one account's password. Only failures count against an account: its owner signing in now and
 * then is never refused because of their own successes.
 */
/** A sign-in attempt, as the audit trail records it (never the password). */
export interface SignInAttempt {
  email: string;
  ok: boolean;
  userId?: string;
  address: string;
}

export function signInHooks(limits: SignInLimiters, onAttempt?: (attempt: SignInAttempt) => Promise<void>) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN && ctx.path !== SIGN_UP) return;
      const address = ctx.headers?.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
      refuseIfSpent(await limits.byAddress.consume(`address:${address}`), 'from this address');
      const email = accountOf(ctx.body);
      if (ctx.path === SIGN_IN && email) refuseIfSpent(await limits.byAccount.peek(`account:${email}`), 'for this account');
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== SIGN_IN) return;
      const email = accountOf(ctx.body);
      const returned = ctx.context.returned;
      const failed = isAPIError(returned);
      if (email && failed && returned.statusCode === 401) await limits.byAccount.consume(`account:${email}`);
      if (email && onAttempt && (!failed || returned.statusCode === 401)) {
        const address = ctx.headers?.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
        await onAttempt({ email, ok: !failed, userId: ctx.context.newSession?.user.id, address });
      }
    }),
  };
}

function accountOf(body: unknown): string | undefined {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined;
}

function refuseIfSpent(r: { allowed: boolean; retryAfter: number }, whose: string): void {
  if (r.allowed) return;
  throw new APIError(
    'TOO_MANY_REQUESTS',
    { message: `Too many sign-in attempts ${whose}; try again in ${r.retryAfter} s.`, code: 'RATE_LIMITED' },
    { 'Retry-After': String(r.retryAfter) },
  );
}
