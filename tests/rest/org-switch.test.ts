import { describe, expect, inject, it } from 'vitest';
import { orgWithKey, trpc } from '../support/accounts';
import { client, expectError, type ApiResponse } from '../support/client';

/**
 * A person in two organizations (their own, and one that invited them): a browser session acts in one at a time,
 * switches between them, and can never act in one it is not a member of; API keys stay in their own.
 */
describe.each(inject('targets'))('switching organization on $name', (target) => {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const url = target.url;

  /** A REST or tRPC call as the browser makes it: the session cookie, no key. */
  async function asBrowser(cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { cookie, origin: url, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
  }
  const pipelineNames = async (cookie: string) => {
    const res = await asBrowser(cookie, 'GET', '/api/pipelines?limit=100');
    expect(res.status, res.text).toBe(200);
    return (res.body.pipelines as { name: string }[]).map((p) => p.name).sort();
  };
  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  it('sees each organization’s pipelines only after switching to it; a switch to a foreign organization is refused and changes nothing', async () => {
    const ada = await orgWithKey(url, `ada.switch.${target.name}.${stamp}@example.org`);
    const bobEmail = `bob.switch.${target.name}.${stamp}@example.org`;
    const bob = await orgWithKey(url, bobEmail);
    expect((await client(url, ada).post('/api/pipelines', { name: `Ada's feed ${stamp}` })).status).toBe(201);
    expect((await client(url, bob).post('/api/pipelines', { name: `Bob's feed ${stamp}` })).status).toBe(201);

    // Ada invites Bob, who has an account already: his link signs in instead of signing up
    const invite = await trpc<{ token: string; path: string; existing_account: boolean }>(url, ada.cookie, 'members.invite', {
      email: bobEmail,
      role: 'member',
    });
    expect(invite.path).toBe(`/sign-in?invite=${invite.token}`);
    expect(invite.existing_account).toBe(true);

    // a second browser of Bob's, signed in before he accepts: it acts in his own organization
    const laptop = await signIn(bobEmail);
    expect(await pipelineNames(laptop)).toEqual([`Bob's feed ${stamp}`]);

    // accepting joins Ada's organization as well and switches that session to it
    const accepted = await trpc<{ organization: { id: string } }>(url, bob.cookie, 'account.acceptInvitation', { token: invite.token });
    expect(accepted.organization.id).toBe(ada.id);
    expect(await pipelineNames(bob.cookie)).toEqual([`Ada's feed ${stamp}`]);

    // the other session did not move: it still sees Bob's own organization until it switches
    const orgs = await trpc<{ organizations: { id: string; active: boolean; role: string }[] }>(url, laptop, 'account.organizations');
    expect(orgs.organizations.map((o) => [o.id, o.role, o.active])).toEqual([
      [bob.id, 'admin', true],
      [ada.id, 'member', false],
    ]);
    expect(await pipelineNames(laptop)).toEqual([`Bob's feed ${stamp}`]);
    await trpc(url, laptop, 'account.switchOrganization', { org_id: ada.id });
    expect(await pipelineNames(laptop)).toEqual([`Ada's feed ${stamp}`]);
    expect((await trpc<{ organization: { id: string } }>(url, laptop, 'account.me')).organization.id).toBe(ada.id);
    await trpc(url, laptop, 'account.switchOrganization', { org_id: bob.id });
    expect(await pipelineNames(laptop)).toEqual([`Bob's feed ${stamp}`]);

    // an organization he is not a member of: tRPC FORBIDDEN, and the session stays where it was
    for (const foreign of [target.orgA.id, target.orgB.id, 'no-such-org']) {
      const refused = await asBrowser(laptop, 'POST', '/api/trpc/account.switchOrganization', { org_id: foreign });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error.data.app).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(await pipelineNames(laptop)).toEqual([`Bob's feed ${stamp}`]);
    }
    // over REST the session cannot name one either (the spec's error shape)
    expectError(await asBrowser(laptop, 'GET', '/api/pipelines', undefined, { 'x-organization-id': target.orgA.id }), 403, 'FORBIDDEN');

    // API keys stay bound to their organization: a key cannot switch, and Bob's key still sees his only
    const keySwitch = await fetch(`${url}/api/trpc/account.switchOrganization`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.key}`, 'x-organization-id': bob.id, 'content-type': 'application/json' },
      body: JSON.stringify({ org_id: ada.id }),
    });
    expect(keySwitch.status).toBe(403);
    const keyList = await client(url, bob).get('/api/pipelines?limit=100');
    expect(keyList.body.pipelines.map((p: { name: string }) => p.name)).toEqual([`Bob's feed ${stamp}`]);

    // membership is checked on every request: removed from Ada's organization, the session acting in it falls back to his own
    await trpc(url, ada.cookie, 'members.remove', {
      user_id: (await trpc<{ members: { user_id: string; email: string }[] }>(url, ada.cookie, 'members.list')).members.find((m) => m.email === bobEmail)!
        .user_id,
    });
    expect(await pipelineNames(bob.cookie)).toEqual([`Bob's feed ${stamp}`]);
    const left = await asBrowser(bob.cookie, 'POST', '/api/trpc/account.switchOrganization', { org_id: ada.id });
    expect(left.status).toBe(403);
  });

  it('refuses an invitation for another email, or a forged one', async () => {
    const ann = await orgWithKey(url, `ann.switch.${target.name}.${stamp}@example.org`);
    const eve = await orgWithKey(url, `eve.switch.${target.name}.${stamp}@example.org`);
    const invite = await trpc<{ token: string }>(url, ann.cookie, 'members.invite', { email: `someone.else.${stamp}@example.org`, role: 'admin' });
    const wrong = await asBrowser(eve.cookie, 'POST', '/api/trpc/account.acceptInvitation', { token: invite.token });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.data.app.code).toBe('FORBIDDEN');
    const forged = await asBrowser(eve.cookie, 'POST', '/api/trpc/account.acceptInvitation', {
      token: invite.token.replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`),
    });
    expect(forged.status).toBe(400);
    expect(forged.body.error.data.app.code).toBe('INVITATION_INVALID');
    const orgs = await trpc<{ organizations: { id: string }[] }>(url, eve.cookie, 'account.organizations');
    expect(orgs.organizations.map((o) => o.id)).toEqual([eve.id]);
  });
});
