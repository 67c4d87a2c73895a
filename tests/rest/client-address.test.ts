import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/accounts';
import { createTestDatabase } from '../support/postgres';
import { startServer, type RunningServer } from '../support/server';

const PASSWORD = 'correct horse battery staple';

function signIn(url: string, email: string, password: string, forwardedFor?: string) {
  return fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ email, password }),
  });
}

// Every request of these tests comes from 127.0.0.1; what differs is what it claims in X-Forwarded-For.
describe('client addresses: X-Forwarded-For is believed only from TRUSTED_PROXIES', () => {
  let direct: RunningServer;
  let proxied: RunningServer;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestDatabase('client_address');
    drop = db.drop;
    [direct, proxied] = await Promise.all([
      startServer({ DATA_DIR: 'memory://', AUTH_ATTEMPTS_PER_MINUTE: '5' }),
      // on Postgres: the limits are counted in the shared store, as with several processes
      startServer({ DATABASE_URL: db.url, TRUSTED_PROXIES: 'loopback', AUTH_ATTEMPTS_PER_MINUTE: '5', RATE_LIMIT_PER_MINUTE: '20' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
    await drop?.();
  });

  it('without a trusted proxy, a new X-Forwarded-For per attempt does not buy more sign-in attempts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signIn(direct.url, `nobody${i}@example.org`, 'wrong password', `198.51.100.${i + 1}`)).status);
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('behind a trusted proxy, each client address has its own budget, and one account gets 5 wrong passwords a minute from any number of addresses', async () => {
    await signUp(proxied.url, 'ada@example.org');
    await signUp(proxied.url, 'grace@example.org');
    const wrong: number[] = [];
    for (let i = 0; i < 6; i++) wrong.push((await signIn(proxied.url, 'ada@example.org', 'not her password', `203.0.113.${i + 10}`)).status);
    expect(wrong).toEqual([401, 401, 401, 401, 401, 429]);
    const locked = await signIn(proxied.url, 'ada@example.org', PASSWORD, '203.0.113.99');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.stringify(await locked.json())).toContain('for this account');
    // another account, from another address, is not held up by any of that
    expect((await signIn(proxied.url, 'grace@example.org', PASSWORD, '203.0.113.100')).status).toBe(200);
  });

  it('an address that uses up the anonymous budget with bad keys locks out only itself', async () => {
    const bad = { authorization: 'Bearer cfk_not_a_real_key_000000000000', 'x-organization-id': 'nope', 'x-forwarded-for': '192.0.2.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await fetch(`${proxied.url}/api/pipelines`, { headers: bad })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.at(-1)).toBe(429);
    expect((await signIn(proxied.url, 'grace@example.org', PASSWORD, '192.0.2.10')).status).toBe(200);
  });
});
