import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { env } from '@/env';
import { freshPglite } from '../../../tests/support/pglite-snapshot';
import { authSecret } from './better-auth';

/** Embedded: processes (or runtimes) starting together on a fresh DATA_DIR agree on one session secret. */
describe('the embedded session secret', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'clinflow-secret-'));
  const before = env.DATA_DIR;
  afterAll(() => {
    env.DATA_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  });

  it('is written once, whole, when several start at the same time', async () => {
    env.DATA_DIR = dir;
    const database = await freshPglite();
    try {
      const secrets = await Promise.all([authSecret(database.db), authSecret(database.db), authSecret(database.db)]);
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]!.length).toBeGreaterThanOrEqual(43);
      expect(readdirSync(dir)).toEqual(['auth.secret']); // no draft left beside it
      expect(statSync(path.join(dir, 'auth.secret')).mode & 0o777).toBe(0o600);
      expect(await authSecret(database.db)).toBe(secrets[0]);
    } finally {
      await database.close();
    }
  });
});
