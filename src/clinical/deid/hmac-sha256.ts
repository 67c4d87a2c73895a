/**
 * HMAC-SHA256 (RFC 2104, FIPS 180-4) of short texts under one key, in JavaScript: the key's inner and outer states
 * are computed once, so a value of up to 55 bytes costs two SHA-256 blocks and no native call. `createHmac` costs
 * ~2 µs a value for its objects and the crossing into C++ (a feed message has ~100 values to pseudonymize, each new);
 * this is the same function, held to `createHmac` by hmac-sha256.test.ts. Not for comparing secrets (no constant-time
 * claims are needed here: nothing is compared, the MAC is the output).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const W = new Int32Array(64);

/** One SHA-256 block (16 big-endian words in W[0..15]) into `h` (8 words). */
function block(h: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15]!;
    const b = W[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let hh = h[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + hh) | 0;
}

/** SHA-256 of `bytes[0..length)` continuing from state `h` after `before` bytes already hashed (a multiple of 64). */
function hashFrom(h: Int32Array, bytes: Uint8Array, length: number, before: number): void {
  let i = 0;
  for (; i + 64 <= length; i += 64) {
    for (let j = 0; j < 16; j++) {
      const p = i + j * 4;
      W[j] = (bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!;
    }
    block(h);
  }
  // the last bytes, 0x80, zeros, and the length in bits (one block, or two when fewer than 9 bytes are left)
  const rest = length - i;
  W.fill(0, 0, 16);
  for (let j = 0; j < rest; j++) W[j >> 2] = W[j >> 2]! | (bytes[i + j]! << (24 - (j & 3) * 8));
  W[rest >> 2] = W[rest >> 2]! | (0x80 << (24 - (rest & 3) * 8));
  if (rest >= 56) {
    block(h);
    W.fill(0, 0, 16);
  }
  const bits = (before + length) * 8;
  W[14] = Math.floor(bits / 0x100000000);
  W[15] = bits | 0;
  block(h);
}

/** A key's inner and outer states (after its padded block XORed with 0x36 and 0x5c). */
export interface HmacKey {
  inner: Int32Array;
  outer: Int32Array;
}

export function hmacKey(key: Uint8Array): HmacKey {
  let k = key;
  if (k.length > 64) {
    const h = Int32Array.from(INITIAL);
    hashFrom(h, k, k.length, 0);
    k = wordsToBytes(h);
  }
  const pad = (x: number) => {
    const bytes = new Uint8Array(64);
    for (let i = 0; i < 64; i++) bytes[i] = (k[i] ?? 0) ^ x;
    const h = Int32Array.from(INITIAL);
    for (let j = 0; j < 16; j++) W[j] = (bytes[j * 4]! << 24) | (bytes[j * 4 + 1]! << 16) | (bytes[j * 4 + 2]! << 8) | bytes[j * 4 + 3]!;
    block(h);
    return h;
  };
  return { inner: pad(0x36), outer: pad(0x5c) };
}

function wordsToBytes(h: Int32Array): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i]! >>> 24;
    out[i * 4 + 1] = (h[i]! >>> 16) & 0xff;
    out[i * 4 + 2] = (h[i]! >>> 8) & 0xff;
    out[i * 4 + 3] = h[i]! & 0xff;
  }
  return out;
}

let buffer = new Uint8Array(256);
const inner = new Int32Array(8);
const digest = new Int32Array(8);
const innerBytes = new Uint8Array(32);

/** HMAC-SHA256 of the UTF-8 bytes of `text` (lone surrogates as U+FFFD, as Node's string encoding writes them): 8 words, big-endian. */
export function hmacSha256(key: HmacKey, text: string): Int32Array {
  let length = text.length;
  let bytes: Uint8Array = buffer;
  if (length > buffer.length) buffer = bytes = new Uint8Array(length * 2);
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      bytes = Buffer.from(text, 'utf8');
      length = bytes.length;
      break;
    }
    bytes[i] = c;
  }
  inner.set(key.inner);
  hashFrom(inner, bytes, length, 64);
  for (let i = 0; i < 8; i++) {
    innerBytes[i * 4] = inner[i]! >>> 24;
    innerBytes[i * 4 + 1] = (inner[i]! >>> 16) & 0xff;
    innerBytes[i * 4 + 2] = (inner[i]! >>> 8) & 0xff;
    innerBytes[i * 4 + 3] = inner[i]! & 0xff;
  }
  digest.set(key.outer);
  hashFrom(digest, innerBytes, 32, 64);
  return digest;
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The first `bytes` bytes of a digest as lowercase hex. */
export function hex(words: Int32Array, bytes: number): string {
  let out = '';
  for (let i = 0; i < bytes; i++) out += HEX[(words[i >> 2]! >>> (24 - (i & 3) * 8)) & 0xff];
  return out;
}

const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const codes: number[] = new Array<number>(36).fill(0);

/** The digest's first 16 bytes as a lowercase UUID (8-4-4-4-12 hex digits), made as one flat string. */
export function uuidText(words: Int32Array): string {
  let j = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) codes[j++] = 45;
    const b = (words[i >> 2]! >>> (24 - (i & 3) * 8)) & 0xff;
    codes[j++] = DIGITS[b >> 4]!;
    codes[j++] = DIGITS[b & 15]!;
  }
  return String.fromCharCode.apply(null, codes);
}
