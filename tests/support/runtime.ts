import { createCaller } from '@/server/api/root';
import { createContext } from '@/server/api/trpc';
import type { Principal } from '@/server/auth/principal';
import { freshPglite } from './pglite-snapshot';
import { organizations } from '@/server/db/schema';
import { createQueue, type Queue } from '@/server/queue/queue';
import { createRuntime, type Runtime } from '@/server/runtime';

/** A runtime over a fresh in-memory PGlite with migrations applied (service tests; from a dump, see tests/support/pglite-snapshot.ts). */
export async function memoryRuntime(): Promise<Runtime> {
  const database = await freshPglite();
  return createRuntime(database, { rateLimitPerWindow: 1_000_000 });
}

/**
 * A runtime over a fresh in-memory PGlite with a queue nobody works: jobs stay as they are written until the test
 * changes them. `close` stops both.
 */
export async function idleQueueRuntime(): Promise<{ rt: Runtime; queue: Queue; close(): Promise<void> }> {
  const database = await freshPglite();
  const queue = await createQueue(database, { heartbeatSeconds: 10, superviseIntervalSeconds: 30, cronSeconds: 30 });
  const rt = await createRuntime(database, { rateLimitPerWindow: 1_000_000, queue });
  return {
    rt,
    queue,
    async close() {
      await queue.stop(0); // its held runs stop reading the database before it closes
      await rt.database.close();
    },
  };
}

/** An organization and a tRPC caller acting in it with the given scopes. */
export async function orgCaller(rt: Runtime, orgId: string, scopes: string[] = ['admin']) {
  await rt.db.insert(organizations).values({ id: orgId, name: orgId }).onConflictDoNothing();
  const principal: Principal = { kind: 'api-key', orgId, scopes, keyId: '00000000-0000-4000-8000-000000000001' };
  return createCaller(createContext(rt, principal));
}
