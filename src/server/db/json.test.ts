import { describe, expect, it } from 'vitest';
import { jsonText } from './json';

describe('jsonText', () => {
  it('replaces NUL and lone surrogates, in values and keys, with U+FFFD', () => {
    const value = { 'k\u0000': 'a\u0000b', lone: 'x\ud800y', low: '\udc00', nested: [{ s: 'end\u0000' }] };
    expect(JSON.parse(jsonText(value))).toEqual({ 'k\ufffd': 'a\ufffdb', lone: 'x\ufffdy', low: '\ufffd', nested: [{ s: 'end\ufffd' }] });
  });

  it('keeps everything else exactly: pairs of surrogates, escaped backslashes, text that only looks like an escape', () => {
    const value = { emoji: 'ok 😀', path: 'C:\\u0000\\new', quote: '"\\"', ctrl: '\u0001\t\n', num: 1.5, none: null };
    expect(JSON.parse(jsonText(value))).toEqual(value);
  });

  it('writes undefined as null', () => {
    expect(jsonText(undefined)).toBe('null');
  });
});
