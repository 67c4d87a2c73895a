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
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
