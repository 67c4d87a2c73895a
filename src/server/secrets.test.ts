import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

/*
 * Key handling of connector credentials. env is read once per module load, so each case loads secrets.ts
 * afresh under the environment it describes (a process restarted with other keys).
 */

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

async function underKeys(current: string, previous: string[] = []) {
  vi.resetModules();
  vi.stubEnv('CONNECTOR_KEY', current);
  vi.stubEnv('CONNECTOR_KEY_PREVIOUS', previous.join(','));
  return import('./secrets');
}

afterEach(() => vi.unstubAllEnvs());

describe('connector secrets', () => {
  it('encrypts with a fresh IV each time and binds the ciphertext to its organization and connector', async () => {
    const s = await underKeys(keyA);
    const one = s.sealSecrets('org-1', 'c-1', { token: 'tok_secret_value_1234' })!;
    const two = s.sealSecrets('org-1', 'c-1', { token: 'tok_secret_value_1234' })!;
    expect(one).not.toContain('tok_secret_value_1234');
    expect(JSON.parse(one).iv).not.toBe(JSON.parse(two).iv);
    expect(s.openSecrets('org-1', 'c-1', one)).toEqual({ token: 'tok_secret_value_1234' });
    // moved to another connector or organization, it does not decrypt
    expect(() => s.openSecrets('org-1', 'c-2', one)).toThrow();
    expect(() => s.openSecrets('org-2', 'c-1', one)).toThrow();
  });

  it('rotates: the previous key still reads, new writes use the new key, a missing key is named', async () => {
    const sealedUnderA = (await underKeys(keyA)).sealSecrets('org-1', 'c-1', { password: 'old-password-0001' });

    const rotated = await underKeys(keyB, [keyA]);
    expect(rotated.openSecrets('org-1', 'c-1', sealedUnderA)).toEqual({ password: 'old-password-0001' });
    expect(rotated.sealedUnderOldKey(sealedUnderA)).toBe(true);
    const resealed = rotated.sealSecrets('org-1', 'c-1', rotated.openSecrets('org-1', 'c-1', sealedUnderA));
    expect(rotated.sealedUnderOldKey(resealed)).toBe(false);
    expect(JSON.parse(resealed!).kid).not.toBe(JSON.parse(sealedUnderA!).kid);

    // once the old key is dropped, the new envelope reads and the old one is reported by its code
    const afterwards = await underKeys(keyB);
    expect(afterwards.openSecrets('org-1', 'c-1', resealed)).toEqual({ password: 'old-password-0001' });
    expect(() => afterwards.openSecrets('org-1', 'c-1', sealedUnderA)).toThrow(expect.objectContaining({ code: 'CONNECTOR_KEY_MISSING' }));
  });

  it('masks: the last 4 characters of a secret of 12 or more, nothing of a shorter one', async () => {
    const s = await underKeys(keyA);
    expect(s.mask('sk_live_0123456789abcd')).toBe('••••abcd');
    expect(s.mask('short-pass1')).toBe('••••');
  });
});
