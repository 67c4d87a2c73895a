import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime } from '../../../../tests/support/runtime';
import { orgKey } from './org-keys';

describe('organization keys', () => {
  let a: Runtime;
  let b: Runtime;
  beforeAll(async () => {
    [a, b] = await Promise.all([memoryRuntime(), memoryRuntime()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a.database.close(), b.database.close()]);
  });

  it('gives an organization the same key for a purpose every time, and other organizations and purposes other keys', async () => {
    const k = await orgKey(a.db, 'org-1', 'deidentify');
    expect(k).toHaveLength(32);
    expect(await orgKey(a.db, 'org-1', 'deidentify')).toEqual(k);
    expect(await orgKey(a.db, 'org-2', 'deidentify')).not.toEqual(k);
    expect(await orgKey(a.db, 'org-1', 'other')).not.toEqual(k);
  });

  it('derives from a secret of its own instance: another installation gives the same organization another key', async () => {
    expect(await orgKey(b.db, 'org-1', 'deidentify')).not.toEqual(await orgKey(a.db, 'org-1', 'deidentify'));
  });
});
