import { describe, expect, it } from 'vitest';
import { adtBundles, syntheaRecords } from '../../../tests/support/clinical/deid';
import { sortedJson, sortedKeys } from './sorted-json';

/** What the idempotency keys hashed before sortedJson: its text must stay exactly this. */
const reference = (v: unknown) => JSON.stringify(v, sortedKeys);

describe('sortedJson', () => {
  it('writes every sample resource and bundle exactly as the sorted-keys replacer does', () => {
    const records = [...adtBundles(), ...syntheaRecords()] as { entry?: { resource?: unknown }[] }[];
    let n = 0;
    for (const record of records) {
      expect(sortedJson(record)).toBe(reference(record));
      for (const e of record.entry ?? []) {
        expect(sortedJson(e.resource)).toBe(reference(e.resource));
        n++;
      }
    }
    expect(n).toBeGreaterThan(7_000);
  });

  it('writes what is not plain JSON data as the replacer does', () => {
    class Thing {
      b = 1;
      a = 2;
    }
    const nullProto = Object.assign(Object.create(null) as object, { z: 1, y: { d: 1, c: 2 } });
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 1_500; i++) at = (at.next = { z: i, a: i }) as Record<string, unknown>;
    const values: unknown[] = [
      { b: 1, a: { d: [3, { y: 1, x: 2 }], c: null } },
      { 10: 'ten', 9: 'nine', b: 1, a: 2 },
      JSON.parse('{"__proto__": {"b": 1, "a": 2}, "a": 1}'),
      { when: new Date(0), b: { toJSON: () => ({ z: 1, y: 2 }) }, a: 1 },
      { t: new Thing(), s: new Map([['a', 1]]), r: nullProto },
      { u: undefined, f: () => 1, s: Symbol('s'), list: [undefined, () => 1, Symbol('t'), , -0, NaN, Infinity, 1e21, 'é\u2028"'] },
      deep,
      [{ b: 1, a: 2 }],
      'text',
      42,
      null,
      undefined,
    ];
    for (const v of values) expect(sortedJson(v)).toBe(reference(v));
  });

  it('fails where the replacer fails (a cycle, a bigint), with the same kind of error', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const failure = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).constructor;
      }
      return undefined;
    };
    for (const v of [cycle, { n: 1n }]) {
      const expected = failure(() => reference(v));
      expect(expected).toBeDefined();
      expect(failure(() => sortedJson(v))).toBe(expected);
    }
  });
});
