import postgres from 'postgres';
import { describe, expect, inject, it } from 'vitest';
import { hashToken } from '@/server/auth/hashed-sessions';
import { signUp, trpc } from '../support/accounts';

/** What a copy of the Postgres database gives away (issue 14 #5): no session, no session-signing secret. */
describe('secrets at rest (Postgres)', () => {
  const target = inject('targets').find((t) => t.name === 'postgres')!;

  it('stores session tokens as their SHA-256 and the signing secret encrypted, and sessions still work', async () => {
    const cookie = await signUp(target.url, 'at-rest@example.org');
    expect(await trpc(target.url, cookie, 'account.me')).toMatchObject({ user: { email: 'at-rest@example.org' } });
    const raw = decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(cookie)![1]!).split('.')[0]!;
    const sql = postgres(inject('postgresUrl'), { max: 1, onnotice: () => {} });
    try {
      const tokens = (await sql<{ token: string }[]>`select token from sessions`).map((r) => r.token);
      expect(tokens).toContain(hashToken(raw));
      expect(tokens).not.toContain(raw);
      const [secret] = await sql<{ value: string }[]>`select value from settings where key = 'auth_secret'`;
      expect(JSON.parse(secret!.value)).toMatchObject({
        v: 1,
        kid: expect.any(String),
        iv: expect.any(String),
        tag: expect.any(String),
        data: expect.any(String),
      });
    } finally {
      await sql.end();
    }
    // signing out removes the (hashed) session: the cookie no longer works
    const out = await fetch(`${target.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { cookie, origin: target.url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(out.status).toBe(200);
    await expect(trpc(target.url, cookie, 'account.me')).rejects.toThrow(/401|UNAUTHORIZED/);
  });
});
