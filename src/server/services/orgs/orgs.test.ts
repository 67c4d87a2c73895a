import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '@/server/auth/api-keys';
import { apiKeys, members, organizations, users } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime } from '../../../../tests/support/runtime';
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
    const [key] = await rt.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.hash, hashApiKey(first.created!.apiKey)));
    expect(key).toMatchObject({ orgId: first.created!.orgId, scopes: ['admin'] });
    expect(key!.hash).not.toContain(first.created!.apiKey); // only the hash is stored
    expect(first.setupToken).toMatch(/^cfs_/);
    // a restart creates nothing, but offers a new setup token while nobody has joined (the old one stops working)
    const again = await bootstrap(rt.db, {});
    expect(again.created).toBeUndefined();
    expect(again.setupToken).toMatch(/^cfs_/);
    expect(again.setupToken).not.toBe(first.setupToken);

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

  it('puts only the holder of the setup token into the start-up organization, once; everyone else into their own', async () => {
    const [defaultOrg] = await rt.db.select().from(organizations).orderBy(organizations.createdAt).limit(1);
    await rt.db.insert(users).values([
      { id: 'u0', name: 'Eve', email: 'eve@example.org' },
      { id: 'u1', name: 'Ada', email: 'ada@example.org' },
      { id: 'u2', name: 'Grace', email: 'grace@example.org' },
    ]);
    // (BOOTSTRAP_ORG_ID 'boot' above took the offer: one start-up organization at a time; a start offers it again)
    const setupToken = (await bootstrap(rt.db, {})).setupToken!;
    // the first to sign up, without the token (or with a wrong one), does not get the organization's data
    const stranger = await onSignUp(rt.db, { id: 'u0', name: 'Eve', email: 'eve@example.org' }, { setup: 'cfs_guessed_token_0000000000000000' });
    expect(stranger).not.toBe(defaultOrg!.id);
    expect(await onSignUp(rt.db, { id: 'u1', name: 'Ada', email: 'ada@example.org' }, { setup: setupToken })).toBe(defaultOrg!.id);
    // used once: the same token opens nothing again, and a restart offers none (the organization has its admin)
    const second = await onSignUp(rt.db, { id: 'u2', name: 'Grace', email: 'grace@example.org' }, { setup: setupToken });
    expect((await bootstrap(rt.db, {})).setupToken).toBeUndefined();
    expect(second).not.toBe(defaultOrg!.id);
    const [org] = await rt.db.select().from(organizations).where(eq(organizations.id, second));
    expect(org!.name).toBe("Grace's organization");
    expect(await rt.db.select().from(members).where(eq(members.userId, 'u2'))).toEqual([expect.objectContaining({ orgId: second, role: 'admin' })]);
  });
});
