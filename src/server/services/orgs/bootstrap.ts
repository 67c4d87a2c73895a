import { randomUUID } from 'node:crypto';
import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { apiKeys, organizations } from '@/server/db/schema';
import { generateApiKey, hashApiKey, keyPrefix } from '@/server/auth/api-keys';
import { logger } from '@/server/logger';
import { offerSetupClaim } from './setup-claim';

export interface BootstrapOptions {
  orgId?: string;
  apiKey?: string;
  /** BOOTSTRAP_SETUP_TOKEN: the start-up organization's one-time sign-up token, instead of a generated one */
  setupToken?: string;
}

export interface BootstrapResult {
  /** Set when this call created a default organization and key that nobody has seen yet. */
  created?: { orgId: string; apiKey: string };
  /** A generated one-time token that lets a browser sign-up join the start-up organization (it has no member yet). */
  setupToken?: string;
}

/**
 * Makes sure the start-up organization exists (see `ensure`), then, while nobody has joined it, offers it to
 * whoever signs up with the setup token (setup-claim.ts).
 */
export async function bootstrap(db: Db, opts: BootstrapOptions): Promise<BootstrapResult> {
  const result = await ensure(db, opts);
  const orgId = result.created?.orgId ?? opts.orgId ?? (opts.apiKey ? 'default' : await oldestOrganization(db));
  if (!orgId) return result;
  const setupToken = await offerSetupClaim(db, orgId, opts.setupToken);
  return setupToken ? { ...result, setupToken } : result;
}

async function oldestOrganization(db: Db): Promise<string | undefined> {
  const [org] = await db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.createdAt)).limit(1);
  return org?.id;
}

/**
 * With BOOTSTRAP_ORG_ID / BOOTSTRAP_API_KEY: makes sure that organization and that admin key exist
 * (idempotent). With neither, on a database without any organization: creates a default organization
 * and an admin key and returns them so the caller can print them once.
 */
async function ensure(db: Db, opts: BootstrapOptions): Promise<BootstrapResult> {
  if (opts.orgId || opts.apiKey) {
    const orgId = opts.orgId ?? 'default';
    await db.insert(organizations).values({ id: orgId, name: orgId }).onConflictDoNothing();
    if (opts.apiKey) {
      const hash = hashApiKey(opts.apiKey);
      const [existing] = await db.select({ orgId: apiKeys.orgId, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.hash, hash));
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
    await tx.insert(apiKeys).values({ orgId, name: 'Initial admin key', prefix: keyPrefix(apiKey), hash: hashApiKey(apiKey), scopes: ['admin'] });
    return { created: { orgId, apiKey } };
  });
}
