import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { generateApiKey, hashApiKey, keyPrefix } from '@/server/auth/api-keys';
import { KEYS_CHANNEL } from '@/server/auth/key-cache';
import { apiKeys } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { isUuid, type ServiceContext } from '../context';

function toKey(row: typeof apiKeys.$inferSelect) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export type ApiKeyInfo = ReturnType<typeof toKey>;

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeyInfo[]> {
  const rows = await ctx.db.select().from(apiKeys).where(eq(apiKeys.orgId, ctx.principal.orgId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toKey);
}

/** Creates a key and returns it in full this once; only its hash is kept. */
export async function createApiKey(ctx: ServiceContext, input: { name: string; scopes: string[] }): Promise<ApiKeyInfo & { key: string }> {
  const key = generateApiKey();
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      orgId: ctx.principal.orgId,
      name: input.name,
      prefix: keyPrefix(key),
      hash: hashApiKey(key),
      scopes: [...new Set(input.scopes)],
      createdBy: ctx.principal.userId ?? ctx.principal.keyId ?? null,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return { ...toKey(row), key };
}

/** Revocation takes effect at once in this process, and in every other one within KEY_CACHE_TTL_MS (see KeyCache). */
export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<ApiKeyInfo> {
  const notFound = new AppError('API_KEY_NOT_FOUND', `API key ${id} was not found.`);
  if (!isUuid(id)) throw notFound;
  const mine = and(eq(apiKeys.id, id), eq(apiKeys.orgId, ctx.principal.orgId));
  const [row] = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(mine, isNull(apiKeys.revokedAt)))
    .returning();
  if (row) {
    ctx.keyCache?.clear();
    // the other processes drop their cached keys too (Postgres; see KeyCache)
    await ctx.db.execute(sql`select pg_notify(${KEYS_CHANNEL}, ${row.id})`);
    return toKey(row);
  }
  const [existing] = await ctx.db.select().from(apiKeys).where(mine);
  if (!existing) throw notFound;
  return toKey(existing);
}
