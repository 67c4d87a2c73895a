import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hex, hmacKey, hmacSha256, uuidText } from './hmac-sha256';

const node = (key: Uint8Array, text: string) => createHmac('sha256', key).update(text).digest('hex');
const ours = (key: Uint8Array, text: string) => hex(hmacSha256(hmacKey(key), text), 32);

describe('HMAC-SHA256 in JavaScript', () => {
  it('gives the RFC 4231 test vector', () => {
    const key = new Uint8Array(20).fill(0x0b);
    expect(ours(key, 'Hi There')).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
  });

  it('equals createHmac on texts of every length around the block boundaries, keys short and long, and non-ASCII text', () => {
    const texts: string[] = [];
    for (let n = 0; n <= 300; n++) texts.push('id\u0000' + 'x'.repeat(n));
    texts.push(
      '',
      'date-shift\u0000',
      'id\u0000Ünïcødé 名前',
      'id\u0000\u{1F600} emoji',
      'id\u0000lone \uD800 surrogate',
      'id\u0000\uDC00',
      'é'.repeat(40),
      '名'.repeat(30),
    );
    for (let i = 0; i < 500; i++) texts.push(randomBytes(1 + (i % 120)).toString('latin1'));
    const keys = [new Uint8Array(32).fill(7), new Uint8Array(16).fill(1), randomBytes(64), randomBytes(65), randomBytes(200)];
    const wrong: string[] = [];
    for (const key of keys) for (const t of texts) if (ours(key, t) !== node(key, t)) wrong.push(`${key.length}: ${JSON.stringify(t)}`);
    expect(wrong).toEqual([]);
  });

  it('writes the first 16 bytes as a UUID', () => {
    const key = randomBytes(32);
    for (const t of ['id\u0000123', 'id\u0000', 'id\u0000Patient']) {
      const h = node(key, t);
      expect(uuidText(hmacSha256(hmacKey(key), t))).toBe(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`);
    }
  });
});
