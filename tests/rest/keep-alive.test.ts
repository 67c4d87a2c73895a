import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMixedLoad } from '../support/mixed-load';
import { createTestDatabase } from '../support/postgres';
import { startServer, tempDir, type RunningServer } from '../support/server';

const ORG = 'org-keep-alive';
const KEY = 'cfk_test_keep_alive_admin_key_0123456789';
// small, so bodies over it are cheap to send; still larger than what Node buffers of a body nobody reads
// (64 KiB), so the rest of such a body stays on the connection
const MAX_BODY = 96 * 1024;
const CLIENTS = 10;
const PER_CLIENT = 80;

const common = {
  BOOTSTRAP_ORG_ID: ORG,
  BOOTSTRAP_API_KEY: KEY,
  CONNECTOR_KEY: 'Y2xpbmZsb3ctdGVzdC1jb25uZWN0b3Ita2V5LTMyYiE=',
  RATE_LIMIT_PER_MINUTE: '1000000',
  MAX_BODY_BYTES: String(MAX_BODY),
};

// Issue 26 (5): ten keep-alive clients mixing ordinary and hostile requests saw ~0.6% of requests of every kind
// end in ECONNRESET. An answer given before the request body was read (an unknown path, no key, a wrong method)
// left the rest of the body on the connection; the client, its body sent, reused the connection for its next
// request, which was never read — until Node's idle timeout destroyed the socket under it.
describe.each([
  { name: 'PGlite', env: () => ({ DATA_DIR: tempDir('keep-alive') }) },
  { name: 'Postgres, 2 processes', env: async () => ({ DATABASE_URL: (await db()).url, WEB_CONCURRENCY: '2' }) },
])('concurrent keep-alive clients, ordinary and hostile requests mixed ($name)', ({ env }) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...common, ...(await env()) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers every request on connections that stay usable: no connection is reset', async () => {
    const result = await runMixedLoad({ url: server.url, key: KEY, org: ORG, maxBody: MAX_BODY }, CLIENTS, PER_CLIENT);
    console.log(`keep-alive load: ${result.sent} requests, ${result.resets} connection failures`, result.failures);
    expect(result.sent).toBe(CLIENTS * PER_CLIENT);
    expect(result.failures).toEqual({});
    expect(result.resets).toBe(0);
    expect(result.unexpected).toEqual({});
  }, 180_000);
});

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
async function db() {
  database ??= await createTestDatabase('keep_alive');
  return database;
}
afterAll(async () => {
  await database?.drop();
});
