import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { hashToken } from '@/server/auth/hashed-sessions';
import { rowsOf } from '@/server/db/rows';
import { orgWithKey, trpc } from '../support/accounts';
import { client, expectError } from '../support/client';
import { createTestDatabase } from '../support/postgres';
import { startServer, tempDir } from '../support/server';

const CREATED = /created a default organization/;

function printedCredentials(output: string) {
  const key = /Bearer (cfk_[A-Za-z0-9_-]+)/.exec(output)?.[1];
  const id = /X-Organization-ID: (\S+)/.exec(output)?.[1];
  if (!key || !id) throw new Error(`no credentials printed:\n${output}`);
  return { id, key };
}

/** What the machine's Postgres accepts from ordinary roles: max_connections less the reserved ones. */
async function acceptedConnections(url: string): Promise<number> {
  const database = await openDatabase({ url, max: 1 });
  try {
    const [r] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int as n`),
    );
    return Number(r!.n);
  } finally {
    await database.close();
  }
}

describe('start-up', () => {
  it('creates a default organization and admin key on a fresh embedded start, prints them once, keeps them', async () => {
    const dataDir = tempDir('fresh');
    const first = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const org = printedCredentials(first.output());
    const created = await client(first.url, org).post('/api/pipelines', { name: 'survives restarts' });
    expect(created.status).toBe(201);
    // the organization goes to whoever signs up with the printed one-time link, not to the first stranger
    // printed as a link to open as it is, on the port the server listens on
    const setup = new RegExp(`http://localhost:${first.port}/sign-up\\?setup=(cfs_[A-Za-z0-9_-]+)`).exec(first.output())?.[1];
    expect(setup).toBeDefined();
    const stranger = await orgWithKey(first.url, 'stranger@example.org');
    expect(stranger.id).not.toBe(org.id);
    expect((await client(first.url, stranger).get('/api/pipelines')).body.pipelines).toEqual([]);
    const owner = await orgWithKey(first.url, 'owner@example.org', ['admin'], setup);
    expect(owner.id).toBe(org.id);
    expect(await trpc(first.url, owner.cookie, 'account.me')).toMatchObject({ organization: { id: org.id } });
    expect((await orgWithKey(first.url, 'late@example.org', ['admin'], setup)).id).not.toBe(org.id); // used once
    expect([0, 143]).toContain(await first.stop()); // Next drains, then exits 143 on SIGTERM

    // the session-signing secret is a file beside the database, readable by its owner only, and not in the database
    expect(statSync(path.join(dataDir, 'auth.secret')).mode & 0o777).toBe(0o600);
    const database = await openDatabase({ dataDir });
    expect(rowsOf(await database.db.execute(sql`select key from settings where key = 'auth_secret'`))).toEqual([]);
    // nor any usable session: the database holds each session token's SHA-256, the cookie the token itself
    const stored = rowsOf<{ token: string }>(await database.db.execute(sql`select token from sessions`)).map((r) => r.token);
    const raw = decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(owner.cookie)![1]!).split('.')[0]!;
    expect(stored).toContain(hashToken(raw));
    expect(stored).not.toContain(raw);
    await database.close();

    const second = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      // a session of the first start is still good: the same secret signs it
      expect(await trpc(second.url, owner.cookie, 'account.me')).toMatchObject({ organization: { id: org.id } });
      expect(second.output()).not.toMatch(CREATED);
      expect(second.output()).not.toMatch(/sign-up\?setup=/); // the organization has its admin
      const listed = await client(second.url, org).get('/api/pipelines');
      expect(listed.status).toBe(200);
      expect(listed.body.pipelines.map((p: { name: string }) => p.name)).toEqual(['survives restarts']);
    } finally {
      await second.stop();
    }
  });

  it('refuses a second process on the same PGlite folder with a clear message', async () => {
    const dataDir = tempDir('locked');
    const owner = await startServer({ DATA_DIR: dataDir });
    try {
      const intruder = await startServer({ DATA_DIR: dataDir }, { waitReady: false });
      const code = await new Promise<number | null>((resolve) => intruder.process.once('exit', resolve));
      expect(code).not.toBe(0);
      expect(intruder.output()).toMatch(/already in use by another Clinflow process \(pid \d+\)/);
      // the owner still works
      const org = printedCredentials(owner.output());
      expect((await client(owner.url, org).get('/api/pipelines')).status).toBe(200);
    } finally {
      await owner.stop();
    }
  });

  it('on Postgres: migrates at start, two processes may start together, BOOTSTRAP_* is idempotent', async () => {
    const db = await createTestDatabase('boot');
    const org = { id: 'boot-org', key: 'cfk_bootstrap_idempotent_key_000001' };
    const env = { DATABASE_URL: db.url, BOOTSTRAP_ORG_ID: org.id, BOOTSTRAP_API_KEY: org.key };
    try {
      const [s1, s2] = await Promise.all([startServer(env), startServer(env)]);
      const made = await client(s1.url, org).post('/api/pipelines', { name: 'shared' });
      expect(made.status).toBe(201);
      expect((await client(s2.url, org).get(`/api/pipelines/${made.body.id}`)).body.name).toBe('shared');
      await Promise.all([s1.stop(), s2.stop()]);

      // started again one per core (no WEB_CONCURRENCY) with a pool larger than Postgres accepts: it starts one process,
      // and says why and that even it does not fit (DATABASE_POOL_MAX, decisions.md)
      const accepted = await acceptedConnections(db.url);
      expect(accepted).toBeLessThan(200 + 7); // the machine's Postgres (max_connections 100); a larger one needs another pool here
      const again = await startServer({ ...env, DATABASE_POOL_MAX: '200', WEB_CONCURRENCY: undefined, LOG_LEVEL: 'info' });
      try {
        expect(again.output()).toMatch(/Clinflow listening on \S+ \(1 process\)/);
        if (os.availableParallelism() > 1) expect(again.output()).toMatch(/starting 1 server process, not one per core/);
        expect(again.output()).toMatch(new RegExp(`is more than the ${accepted} Postgres accepts .*Lower WEB_CONCURRENCY or DATABASE_POOL_MAX`));
        expect(again.output()).not.toMatch(CREATED);
        expect((await client(again.url, org).get('/api/pipelines')).body.total_count).toBe(1);
        expectError(await client(again.url, { ...org, key: 'cfk_bootstrap_idempotent_key_000002' }).get('/api/pipelines'), 401, 'UNAUTHENTICATED');
      } finally {
        await again.stop();
      }
    } finally {
      await db.drop();
    }
  });
});
