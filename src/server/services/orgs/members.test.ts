import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, users } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { readInvitation, signInvitation } from './invitations';
import { describeInvitation } from './members';
import { onSignUp } from './on-sign-up';

describe('members, roles and invitations', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  const signUp = async (id: string, email: string, invite?: string) => {
    await rt.db.insert(users).values({ id, name: id, email });
    return onSignUp(rt.db, { id, name: id, email }, { invite });
  };

  it('invites by a signed link that only the invited email can use, with the role it names', async () => {
    const orgId = await signUp('ada', 'ada@hospital.org');
    const a = await orgCaller(rt, orgId);
    const link = await a.members.invite({ email: 'Grace@Hospital.org', role: 'viewer' });
    expect(link.path).toBe(`/sign-up?invite=${link.token}`);
    expect(await describeInvitation(rt, link.token)).toMatchObject({ valid: true, role: 'viewer', email: 'grace@hospital.org' });

    // someone else with the link gets an organization of their own
    expect(await signUp('mallory', 'mallory@example.org', link.token)).not.toBe(orgId);
    expect(await signUp('grace', 'grace@hospital.org', link.token)).toBe(orgId);
    expect((await a.members.list()).members.map((m) => [m.name, m.role])).toEqual([
      ['ada', 'admin'],
      ['grace', 'viewer'],
    ]);
    await expect(a.members.invite({ email: 'grace@hospital.org', role: 'member' })).rejects.toMatchObject({ cause: { code: 'ALREADY_MEMBER' } });
    // someone with an account in another organization is invited to sign in and join as well
    const existing = await a.members.invite({ email: 'mallory@example.org', role: 'member' });
    expect(existing).toMatchObject({ path: `/sign-in?invite=${existing.token}`, existing_account: true });
  });

  it('refuses forged and expired links', async () => {
    const orgId = await signUp('lin', 'lin@clinic.org');
    const { token } = await signInvitation(rt.db, { orgId, role: 'admin', email: 'x@clinic.org' });
    const forged = token.replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect(await readInvitation(rt.db, forged)).toEqual({ problem: 'This invitation link is not valid.' });
    // the same payload signed for another organization does not open this one
    const other = await signUp('eve', 'eve@example.org');
    const [, payload] = /^cfi_([^.]+)\./.exec(token)!;
    const { token: theirs } = await signInvitation(rt.db, { orgId: other, role: 'admin', email: 'x@clinic.org' });
    expect(await readInvitation(rt.db, `cfi_${payload}.${theirs.split('.')[1]}`)).toEqual({ problem: 'This invitation link is not valid.' });
    const old = await signInvitation(rt.db, { orgId, role: 'member', email: 'y@clinic.org' }, new Date(Date.now() - 8 * 86_400_000));
    expect(await readInvitation(rt.db, old.token)).toEqual({ problem: 'This invitation has expired: ask for a new one.' });
    expect(await readInvitation(rt.db, 'hello')).toEqual({ problem: 'This is not an invitation link.' });
  });

  it('changes roles and removes members, but never the last admin', async () => {
    const orgId = await signUp('mary', 'mary@ward.org');
    const a = await orgCaller(rt, orgId);
    const { token } = await a.members.invite({ email: 'joan@ward.org', role: 'member' });
    await signUp('joan', 'joan@ward.org', token);
    await expect(a.members.setRole({ user_id: 'mary', role: 'member' })).rejects.toMatchObject({ cause: { code: 'LAST_ADMIN' } });
    await expect(a.members.remove({ user_id: 'mary' })).rejects.toMatchObject({ cause: { code: 'LAST_ADMIN' } });
    await a.members.setRole({ user_id: 'joan', role: 'admin' });
    await a.members.setRole({ user_id: 'mary', role: 'viewer' });
    expect((await a.members.remove({ user_id: 'mary' })).members.map((m) => m.user_id)).toEqual(['joan']);
    await expect(a.members.remove({ user_id: 'nobody' })).rejects.toMatchObject({ cause: { code: 'MEMBER_NOT_FOUND' } });
    // another organization's member is not found from here
    await expect(a.members.remove({ user_id: 'ada' })).rejects.toMatchObject({ cause: { code: 'MEMBER_NOT_FOUND' } });
    expect(await rt.db.select().from(members)).toEqual(expect.arrayContaining([expect.objectContaining({ userId: 'ada' })]));
  });
});
