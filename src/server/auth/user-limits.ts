import type { Principal } from '@/server/auth/principal';
import type { RateLimitResult } from '@/server/auth/rate-limit';
import { AppError } from '@/server/errors';
import type { Runtime } from '@/server/runtime';

/**
 * The per-user limits beside the organization's (spec §8): agent chat, and the copilot. REST counts them at the
 * edge (api/rest/handler.ts), the web app's tRPC calls in the procedures; both count here.
 */
export type UserLimit = 'chat' | 'copilot';

/** Counts a request against its caller's own budget (a browser user, or an API key). */
export async function consumeUserLimit(rt: Runtime, principal: Principal, which: UserLimit): Promise<RateLimitResult> {
  const who = principal.kind === 'session' && principal.userId ? `user:${principal.userId}` : `key:${principal.keyId ?? principal.orgId}`;
  return (which === 'chat' ? rt.chatLimiter : rt.copilotLimiter).consume(who);
}

/** The 429 of a spent per-user limit, saying which limit and when to try again. */
export function userLimitRefusal(rate: RateLimitResult, which: UserLimit): AppError {
  const what = which === 'chat' ? 'agent chat' : 'copilot';
  return new AppError(
    'RATE_LIMITED',
    `Too many ${what} requests: the limit is ${rate.limit} a minute per user or API key; try again in ${rate.retryAfter} s.`,
    { retry_after: rate.retryAfter },
  );
}
