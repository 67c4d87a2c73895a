import type { TestProject } from 'vitest/node';
import { orgWithKey, type Org } from './accounts';
import { createTestDatabase } from './postgres';
import { startServer, tempDir, type RunningServer } from './server';

export interface Target {
  name: 'pglite' | 'postgres';
  url: string;
  orgA: Org;
  orgB: Org;
}

declare module 'vitest' {
  export interface ProvidedContext {
    targets: Target[];
    postgresUrl: string;
  }
}

export const ORG_A = 'org-a';
export const KEY_A = 'cfk_test_org_a_admin_key_0123456789';
/** Lets the first user of each server join organization A (BOOTSTRAP_SETUP_TOKEN). */
export const SETUP_TOKEN_A = 'cfs_test_setup_token_org_a_0123456789';

/**
 * Starts the built app twice, as users run it: on embedded PGlite, and on the machine's Postgres (a fresh
 * database). Each has organization A from BOOTSTRAP_* and organization B made by signing up in the browser API.
 */
export default async function setup(project: TestProject) {
  const pg = await createTestDatabase('rest');
  const common = {
    BOOTSTRAP_ORG_ID: ORG_A,
    BOOTSTRAP_API_KEY: KEY_A,
    BOOTSTRAP_SETUP_TOKEN: SETUP_TOKEN_A,
    // connector credentials are encrypted under it (required on Postgres; embedded would make one in DATA_DIR)
    CONNECTOR_KEY: 'Y2xpbmZsb3ctdGVzdC1jb25uZWN0b3Ita2V5LTMyYiE=',
    RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_ATTEMPTS_PER_MINUTE: '1000',
  };
  const servers: RunningServer[] = await Promise.all([startServer({ ...common, DATA_DIR: tempDir('rest') }), startServer({ ...common, DATABASE_URL: pg.url })]);
  const targets: Target[] = [];
  for (const [i, name] of (['pglite', 'postgres'] as const).entries()) {
    const url = servers[i]!.url;
    // a stranger signing up first gets an organization of their own; the holder of the setup token joins A
    const stranger = await orgWithKey(url, `first-stranger-${name}@example.org`);
    if (stranger.id === ORG_A) throw new Error('a sign-up without the setup token joined the bootstrap organization');
    const owner = await orgWithKey(url, `owner-a-${name}@example.org`, ['admin'], SETUP_TOKEN_A);
    if (owner.id !== ORG_A) throw new Error('the setup token did not let its holder join the bootstrap organization');
    const b = await orgWithKey(url, `owner-b-${name}@example.org`);
    targets.push({ name, url, orgA: { id: ORG_A, key: KEY_A }, orgB: { id: b.id, key: b.key } });
  }
  project.provide('targets', targets);
  project.provide('postgresUrl', pg.url);
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await pg.drop();
  };
}
