import { eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { settings } from '@/server/db/schema';

/** Returns the stored value of `key`, storing `make()` first if there is none (safe across processes). */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  await db.insert(settings).values({ key, value: make() }).onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  if (!row) throw new Error(`setting ${key} vanished`);
  return row.value;
}

/** Sets `key` to `value`, replacing what was there. */
export async function putSetting(db: Db, key: string, value: string): Promise<void> {
  await db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}
