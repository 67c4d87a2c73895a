const MAX_PATHS = 80;
/** How many values of a path `fieldsAt` looks into for keys (a big bundle's entries need not all be read). */
const MAX_VALUES = 500;

/** A key as a JSONata name: plain when it is an identifier, else `back-quoted`. */
export function jsonataName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `\`${key.replace(/`/g, '')}\``;
}

/** The JSONata paths of a value (`name[0].family`), for the field picker; arrays show their first item. */
export function pathsOf(value: unknown, prefix = '', depth = 0, out: { path: string; sample: string }[] = []): { path: string; sample: string }[] {
  if (out.length >= MAX_PATHS || depth > 5) return out;
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (first !== null && typeof first === 'object') pathsOf(first, `${prefix}[0]`, depth + 1, out);
    else if (value.length > 0 && prefix) out.push({ path: `${prefix}[0]`, sample: JSON.stringify(first) ?? '' });
    return out;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const name = jsonataName(k);
      const path = prefix ? `${prefix}.${name}` : name;
      if (v !== null && typeof v === 'object') pathsOf(v, path, depth + 1, out);
      else if (out.length < MAX_PATHS) out.push({ path, sample: JSON.stringify(v) ?? '' });
    }
  }
  return out;
}

function flatInto(value: unknown, out: unknown[]): void {
  if (out.length >= MAX_VALUES || value === undefined) return;
  if (Array.isArray(value)) for (const v of value) flatInto(v, out);
  else out.push(value);
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `array(${v.length})`;
  return typeof v;
}

/**
 * The fields found at a JSONata path of a value (`entry.resource` → the keys of every resource), with the
 * kind and a sample of each: arrays on the way are flattened as JSONata's path steps do, and the keys of
 * all the values reached are merged in order of first appearance.
 */
export function fieldsAt(value: unknown, steps: readonly string[]): { key: string; kind: string; sample: string }[] {
  let values: unknown[] = [];
  flatInto(value, values);
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of values) if (v && typeof v === 'object') flatInto((v as Record<string, unknown>)[step], next);
    values = next;
  }
  const fields = new Map<string, { key: string; kind: string; sample: string }>();
  for (const v of values) {
    if (!v || typeof v !== 'object') continue;
    for (const [key, field] of Object.entries(v)) {
      if (!fields.has(key)) fields.set(key, { key, kind: kindOf(field), sample: (JSON.stringify(field) ?? '').slice(0, 120) });
    }
  }
  return [...fields.values()];
}
