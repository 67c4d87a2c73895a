import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { orgSlots } from '@/server/db/schema';

/** How long a slot stays held without its holder renewing it (a process that died frees its slots this late). */
const LEASE_SECONDS = 60;
const RENEW_MS = 20_000;
const POLL_MS = 500;

export type ReleaseSlot = () => Promise<void>;

/**
 * One of an organization's `limit` slots named `name` (e.g. the 5 running bulk exports), counted in the database so
 * that every process shares them: the release function, or null when none is free by `waitUntil` (epoch ms; now, when
 * absent). While held the lease is renewed; a process that dies loses its slots within LEASE_SECONDS.
 */
export async function acquireOrgSlot(
  db: Db,
  orgId: string,
  name: string,
  limit: number,
  options: { signal: AbortSignal; waitUntil?: number },
): Promise<ReleaseSlot | null> {
  const holder = randomUUID();
  for (;;) {
    const slot = await claimFree(db, orgId, name, limit, holder);
    if (slot !== undefined) return held(db, orgId, name, slot, holder);
    const left = (options.waitUntil ?? 0) - Date.now();
    if (left <= 0 || options.signal.aborted) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}

/** Takes the first slot that is free (never taken, or its lease ran out): one statement per slot tried. */
async function claimFree(db: Db, orgId: string, name: string, limit: number, holder: string): Promise<number | undefined> {
  const expiresAt = sql`now() + make_interval(secs => ${LEASE_SECONDS})`;
  for (let slot = 0; slot < limit; slot++) {
    const [row] = await db
      .insert(orgSlots)
      .values({ orgId, name, slot, holder, expiresAt })
      .onConflictDoUpdate({ target: [orgSlots.orgId, orgSlots.name, orgSlots.slot], set: { holder, expiresAt }, setWhere: sql`${orgSlots.expiresAt} < now()` })
      .returning({ slot: orgSlots.slot });
    if (row) return row.slot;
  }
  return undefined;
}

function held(db: Db, orgId: string, name: string, slot: number, holder: string): ReleaseSlot {
  const mine = and(eq(orgSlots.orgId, orgId), eq(orgSlots.name, name), eq(orgSlots.slot, slot), eq(orgSlots.holder, holder));
  const renew = setInterval(() => {
    void db
      .update(orgSlots)
      .set({ expiresAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .where(mine)
      .catch(() => undefined); // the database away: the lease runs on, and the next renewal tries again
  }, RENEW_MS);
  renew.unref();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(renew);
    await db.delete(orgSlots).where(mine);
  };
}
