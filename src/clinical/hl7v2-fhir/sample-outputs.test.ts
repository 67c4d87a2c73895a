import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleOutputs } from './sample-outputs';
import { DATA } from './samples';

// sha256 (first 16 hex digits) of each sample's conversion, as the converter gave them before its speed work
// (issue 27): a change that alters any byte of any bundle fails here, naming the sample and option set.
const expected = JSON.parse(readFileSync(path.join(import.meta.dirname, 'sample-outputs.hashes.json'), 'utf8')) as Record<string, string>;

describe('conversion of every shared sample, byte for byte', () => {
  it('gives the same JSON as recorded, for every message and option set', () => {
    const outputs = sampleOutputs(DATA);
    expect(outputs.size).toBe(Object.keys(expected).length);
    const got = Object.fromEntries([...outputs].map(([k, v]) => [k, createHash('sha256').update(v).digest('hex').slice(0, 16)]));
    expect(got).toEqual(expected);
  });
});
