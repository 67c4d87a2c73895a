import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { preparedPerDb } from '@/server/db/prepared';
import { apiKeys } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { KeyCache } from './key-cache';
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

/** Looked up on every request: prepared once per database handle. */
const findKey = preparedPerDb((db) =>
  db
    .select({ id: apiKeys.id, orgId: apiKeys.orgId, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .limit(1)
    .prepare('find_api_key'),
);

/**
 * Resolves `Authorization: Bearer <key>` + `X-Organization-ID` to a principal. With a `cache` a key is looked up
 * once (and, on Postgres, again after at most KEY_CACHE_TTL_MS: see KeyCache); without one on every request.
 */
export async function authenticateApiKey(db: Db, token: string, orgHeader: string | null, cache?: KeyCache): Promise<Principal> {
  const hash = hashApiKey(token);
  let entry = cache?.get(hash);
  if (!entry) {
    const generation = cache?.generation ?? 0;
    const [key] = await findKey(db).execute({ hash });
    if (!key) throw new AppError('UNAUTHENTICATED', 'The API key is invalid or has been revoked.');
    entry = {
      orgId: key.orgId,
      principal: { kind: 'api-key', orgId: key.orgId, scopes: key.scopes, keyId: key.id },
      lastUsedAt: key.lastUsedAt?.getTime() ?? null,
    };
    cache?.set(hash, entry, generation);
  }
  if (!orgHeader) throw new AppError('UNAUTHENTICATED', 'The X-Organization-ID header is required.');
  if (orgHeader !== entry.orgId) throw new AppError('FORBIDDEN', 'This API key does not belong to that organization.');
  touch(db, entry);
  return entry.principal;
}

/** Records the key's use, at most once a minute (a write per request would cost more than the request). */
function touch(db: Db, entry: { principal: Principal; lastUsedAt: number | null }): void {
  const now = Date.now();
  if (entry.lastUsedAt !== null && now - entry.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
  entry.lastUsedAt = now;
  const cutoff = new Date(now - LAST_USED_RESOLUTION_MS);
  void db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(and(eq(apiKeys.id, entry.principal.keyId!), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, cutoff))))
    .catch(() => {});
}
