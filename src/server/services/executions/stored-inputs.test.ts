import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFLATE_FROM, packInputs, unpackInputs, withInputs } from './stored-inputs';

const DIR = '/work/shared/data/hl7v2/messages';
const ADT = fs
  .readFileSync(
    path.join(
      DIR,
      fs.readdirSync(DIR).find((f) => f.startsWith('ADT-'))!,
    ),
    'utf8',
  )
  .replace(/\r?\n/g, '\r');

describe('an execution input as stored', () => {
  it('a received message is stored deflated, in well under its size, and read back as it came', () => {
    const inputs = { message: ADT, remoteAddress: '::ffff:127.0.0.1', receivedAt: '2026-11-28T23:00:00.000Z', note: 'é ✓ 𝄞' };
    const packed = packInputs(inputs);
    expect(packed.json).toBe('{}');
    expect(packed.z!.length).toBeLessThan(JSON.stringify(inputs).length * 0.75);
    const back = unpackInputs(JSON.parse(packed.json), packed.z);
    expect(back).toEqual(inputs);
    expect(back.message).toBe(ADT);
    expect(withInputs({ id: 'x', inputs: {}, inputsZ: packed.z })).toEqual({ id: 'x', inputs, inputsZ: null });
  });

  it('a small input stays JSON; a large one of little redundancy is deflated as far as it goes', () => {
    const small = { patient: { name: [{ family: 'Kshlerin' }] } };
    expect(JSON.stringify(small).length).toBeLessThan(DEFLATE_FROM);
    expect(packInputs(small)).toEqual({ json: JSON.stringify(small), z: null });
    // base64 of random bytes: deflate saves only what base64 added (a quarter), yet that is stored deflated
    const random = { blob: randomBytes(3000).toString('base64') };
    const packed = packInputs(random);
    expect(packed.z!.length).toBeLessThan(JSON.stringify(random).length * 0.8);
    expect(unpackInputs({}, packed.z)).toEqual(random);
    expect(unpackInputs(small, null)).toBe(small);
  });
});
