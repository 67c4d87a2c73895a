import { hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '@/server/db/client';
import { getOrCreateSetting } from '@/server/db/settings';

/** The instance's master secret for organization keys: random, made once, kept in the database. */
const MASTER_SETTING = 'org_key_master';

// per database: tests open several in one process
const caches = new WeakMap<Db, Map<string, Uint8Array>>();

/**
 * A 32-byte key of one organization for one purpose (`deidentify`: keyed hashes and date shifts that
 * link the same patient across messages). Derived with HKDF-SHA256 from the instance's master secret,
 * the organization id and the purpose, so no organization can reproduce another's pseudonyms, and every
 * process of the instance (server, workers) derives the same key without storing one per organization.
 */
export async function orgKey(db: Db, orgId: string, purpose: string): Promise<Uint8Array> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const id = `${orgId}\u0000${purpose}`;
  const known = cache.get(id);
  if (known) return known;
  const master = await getOrCreateSetting(db, MASTER_SETTING, () => randomBytes(32).toString('base64url'));
  const key = new Uint8Array(hkdfSync('sha256', Buffer.from(master, 'base64url'), Buffer.from(orgId, 'utf8'), Buffer.from(`clinflow:${purpose}`, 'utf8'), 32));
  cache.set(id, key);
  return key;
}
