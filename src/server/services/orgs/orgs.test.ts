import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '@/server/auth/api-keys';
import { apiKeys, members, organizations, users } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime } from '@/server/testing';
import { bootstrap } from './bootstrap';
import { onSignUp } from './on-sign-up';

describe('bootstrap and sign-up', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  });
  afterAll(() => rt.database.close());

  it('creates a default organization and admin key once, on an empty database only', async () => {
    const first = await bootstrap(rt.db, {});
    expect(first.created?.apiKey).toMatch(/^cfk_[A-Za-z0-9_-]{43}$/);
    const [key] = await rt.db.select().from(apiKeys).where(eq(apiKeys.hash, hashApiKey(first.created!.apiKey)));
    expect(key).toMatchObject({ orgId: first.created!.orgId, scopes: ['admin'] });
    expect(key!.hash).not.toContain(first.created!.apiKey); // only the hash is stored
    expect(await bootstrap(rt.db, {})).toEqual({});
    expect(await rt.db.select().from(organizations)).toHaveLength(1);
  });

  it('makes BOOTSTRAP_ORG_ID / BOOTSTRAP_API_KEY exist, idempotently, and refuses a key of another organization', async () => {
    const opts = { orgId: 'boot', apiKey: 'cfk_bootstrap_key_for_tests_000001' };
    await bootstrap(rt.db, opts);
    await bootstrap(rt.db, opts);
    const keys = await rt.db.select().from(apiKeys).where(eq(apiKeys.orgId, 'boot'));
    expect(keys).toHaveLength(1);
    await expect(bootstrap(rt.db, { orgId: 'other', apiKey: opts.apiKey })).rejects.toThrow(/another organization/);
  });

  it('puts the first user into the start-up organization and later users into their own', async () => {
    const [defaultOrg] = await rt.db.select().from(organizations).orderBy(organizations.createdAt).limit(1);
    await rt.db.insert(users).values([
      { id: 'u1', name: 'Ada', email: 'ada@example.org' },
      { id: 'u2', name: 'Grace', email: 'grace@example.org' },
    ]);
    expect(await onSignUp(rt.db, { id: 'u1', name: 'Ada', email: 'ada@example.org' })).toBe(defaultOrg!.id);
    const second = await onSignUp(rt.db, { id: 'u2', name: 'Grace', email: 'grace@example.org' });
    expect(second).not.toBe(defaultOrg!.id);
    const [org] = await rt.db.select().from(organizations).where(eq(organizations.id, second));
    expect(org!.name).toBe("Grace's organization");
    expect(await rt.db.select().from(members).where(eq(members.userId, 'u2'))).toEqual([
      expect.objectContaining({ orgId: second, role: 'admin' }),
    ]);
  });
});
