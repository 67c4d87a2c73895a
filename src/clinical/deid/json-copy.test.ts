import { describe, expect, it } from 'vitest';
import { jsonCopy } from './json-copy';

const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('jsonCopy', () => {
  it('gives what a JSON round trip gives, and shares nothing with its input', () => {
    const shared = { reference: 'Patient/1' };
    const inputs: unknown[] = [
      {
        resourceType: 'Bundle',
        entry: [{ resource: { resourceType: 'Observation', subject: shared } }, { resource: { resourceType: 'Encounter', subject: shared } }],
      },
      { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, NaN, Infinity, -0, 1.5e300], e: null, f: { g: [[]] }, 10: 'ten', 2: 'two' },
      [1, 'x', { y: new Date('2026-01-01T00:00:00Z') }],
      Object.assign(Object.create(null), { z: 1 }),
      { toJSON: () => ({ replaced: true }) },
      JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}'),
      { s: 'lone \ud800 surrogate', n: -0 },
    ];
    for (const input of inputs) {
      const copy = jsonCopy(input);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(roundTrip(input)));
      expect(copy).toEqual(roundTrip(input));
    }
    const bundle = jsonCopy(inputs[0]) as { entry: { resource: { subject: object } }[] };
    expect(bundle.entry[0]!.resource.subject).not.toBe(bundle.entry[1]!.resource.subject);
    expect(bundle.entry[0]!.resource.subject).not.toBe(shared);
    expect(Object.getPrototypeOf(jsonCopy(inputs[5]))).toBe(Object.prototype);
  });

  it('fails where JSON.stringify fails', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy({ n: 10n })).toThrow(TypeError);
    expect(() => jsonCopy(undefined)).toThrow(SyntaxError);
  });
});
