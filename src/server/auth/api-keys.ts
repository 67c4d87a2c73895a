import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { apiKeys } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { Principal } from './principal';

/**
 * API keys are 256 random bits, so a plain SHA-256 is the right hash: there is nothing to brute-force
 * (a slow password hash would only slow down every request).
 */
export function generateApiKey(): string {
  return `cfk_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves `Authorization: Bearer <key>` + `X-Organization-ID` to a principal. Looked up on every request
 * (no cache), so a revoked key stops working at once in every process.
 */
export async function authenticateApiKey(db: Db, token: string, orgHeader: string | null): Promise<Principal> {
  const [key] = await db
    .select({ id: apiKeys.id, orgId: apiKeys.orgId, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, hashApiKey(token)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!key) throw new AppError('UNAUTHENTICATED', 'The API key is invalid or has been revoked.');
  if (!orgHeader) throw new AppError('UNAUTHENTICATED', 'The X-Organization-ID header is required.');
  if (orgHeader !== key.orgId) throw new AppError('FORBIDDEN', 'This API key does not belong to that organization.');
  const now = Date.now();
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    const cutoff = new Date(now - LAST_USED_RESOLUTION_MS);
    void db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, cutoff))))
      .catch(() => {});
  }
  return { kind: 'api-key', orgId: key.orgId, scopes: key.scopes, keyId: key.id };
}
