import type { KeyCache } from '@/server/auth/key-cache';
import type { Principal } from '@/server/auth/principal';
import type { Queue } from '@/server/queue/queue';
import type { Db } from '@/server/db/client';

/** What a service needs from whoever calls it: the database and the authenticated caller. */
export interface ServiceContext {
  db: Db;
  principal: Principal;
  /** Present in embedded mode; cleared whenever a key is revoked. */
  keyCache?: KeyCache;
  /** The execution queue, where there is one (schedules, async executions). */
  queue?: Queue;
  /** Where the call came in: the web app (its tRPC endpoint) or the API (REST, webhooks). */
  channel: Channel;
}

export type Channel = 'app' | 'api';

/** The parts of the process's runtime (`Runtime`) that services use. */
export type ServiceRuntime = Pick<ServiceContext, 'db' | 'keyCache' | 'queue'>;

/** A service context whose caller may not be known yet. */
export type MaybeServiceContext = Omit<ServiceContext, 'principal'> & { principal: Principal | null };

/**
 * The one way a ServiceContext is made: from the runtime and the caller. The request edge uses it for
 * route handlers (webhook, streams), tRPC for its procedures' context (where the caller may still be
 * unknown: a procedure that needs one refuses without it).
 */
export function serviceContext(rt: ServiceRuntime, principal: Principal, channel?: Channel): ServiceContext;
export function serviceContext(rt: ServiceRuntime, principal: Principal | null, channel?: Channel): MaybeServiceContext;
export function serviceContext(rt: ServiceRuntime, principal: Principal | null, channel: Channel = 'api'): MaybeServiceContext {
  return { db: rt.db, principal, keyCache: rt.keyCache, queue: rt.queue, channel };
}

export { isUuid } from '@/shared/ids';
