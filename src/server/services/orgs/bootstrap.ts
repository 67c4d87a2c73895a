import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { apiKeys, organizations } from '@/server/db/schema';
import { generateApiKey, hashApiKey, keyPrefix } from '@/server/auth/api-keys';
import { logger } from '@/server/logger';

export interface BootstrapOptions {
  orgId?: string;
  apiKey?: string;
}

export interface BootstrapResult {
  /** Set when this call created a default organization and key that nobody has seen yet. */
  created?: { orgId: string; apiKey: string };
}

/**
 * With BOOTSTRAP_ORG_ID / BOOTSTRAP_API_KEY: makes sure that organization and that admin key exist
 * (idempotent). With neither, on a database without any organization: creates a default organization
 * and an admin key and returns them so the caller can print them once.
 */
export async function bootstrap(db: Db, opts: BootstrapOptions): Promise<BootstrapResult> {
  if (opts.orgId || opts.apiKey) {
    const orgId = opts.orgId ?? 'default';
    await db.insert(organizations).values({ id: orgId, name: orgId }).onConflictDoNothing();
    if (opts.apiKey) {
      const hash = hashApiKey(opts.apiKey);
      const [existing] = await db
        .select({ orgId: apiKeys.orgId, revokedAt: apiKeys.revokedAt })
        .from(apiKeys)
        .where(eq(apiKeys.hash, hash));
      if (existing && existing.orgId !== orgId) {
        throw new Error('BOOTSTRAP_API_KEY is already the key of another organization.');
      }
      if (existing?.revokedAt) {
        // an administrator revoked it on purpose: a restart must not bring it back
        logger.warn('BOOTSTRAP_API_KEY was revoked in Settings → API keys and stays revoked; set a new key.');
      }
      await db
        .insert(apiKeys)
        .values({ orgId, name: 'Bootstrap admin key', prefix: keyPrefix(opts.apiKey), hash, scopes: ['admin'] })
        .onConflictDoNothing();
    }
    return {};
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ n: count() }).from(organizations);
    if ((row?.n ?? 0) > 0) return {};
    const orgId = randomUUID();
    const apiKey = generateApiKey();
    await tx.insert(organizations).values({ id: orgId, name: 'Default organization' });
    await tx
      .insert(apiKeys)
      .values({ orgId, name: 'Initial admin key', prefix: keyPrefix(apiKey), hash: hashApiKey(apiKey), scopes: ['admin'] });
    return { created: { orgId, apiKey } };
  });
}
