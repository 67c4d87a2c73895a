/**
 * JSON text with every object's keys in sorted order (arrays keep theirs): exactly what
 * `JSON.stringify(value, sortedKeys)` writes. fhir-write's idempotency keys are hashes of it, so the text must never
 * change (a retry after an upgrade must find what the first attempt stored). Plain JSON data (plain objects and
 * arrays) is copied once with its keys sorted, objects already in order kept as they are, and written by one
 * JSON.stringify without a replacer (which is called back for every value, strings included); anything else
 * (toJSON, class instances, very deep nesting) is written through the replacer.
 */
export function sortedJson(value: unknown): string | undefined {
  let sorted: unknown;
  try {
    sorted = sortedCopy(value, 0);
  } catch (e) {
    if (e !== OTHER) throw e;
    return JSON.stringify(value, sortedKeys);
  }
  return JSON.stringify(sorted);
}

/** JSON.stringify's replacer that writes every object's keys in order (arrays keep theirs). */
export function sortedKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

const OTHER = Symbol('not plain JSON');
const MAX_DEPTH = 1_000;

/**
 * `v` with its objects' keys in sorted order, built as the replacer builds its copies (keys set in sorted order, so
 * array-index keys come first as in any object); `v` itself when nothing in it needs a copy.
 */
function sortedCopy(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth > MAX_DEPTH) throw OTHER;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype || 'toJSON' in v) throw OTHER;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const c = sortedCopy(x, depth + 1);
      if (c !== x) (out ??= v.slice())[i] = c;
    }
    return out ?? v;
  }
  const proto = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in v) throw OTHER;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  // assigning an own `__proto__` would set the copy's prototype instead: the replacer's copy defines it
  if (keys.includes('__proto__')) throw OTHER;
  let changed = proto === null;
  for (let i = 1; i < keys.length && !changed; i++) if (keys[i - 1]! > keys[i]!) changed = true;
  const values = keys.map((k) => {
    const x = o[k];
    const c = sortedCopy(x, depth + 1);
    if (c !== x) changed = true;
    return c;
  });
  if (!changed) return v;
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const i of order) out[keys[i]!] = values[i];
  return out;
}
