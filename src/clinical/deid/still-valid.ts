import { validateFhir } from '@/clinical/fhir/validate';

type Json = Record<string, unknown>;

/**
 * Whether the copy `after` that the Safe Harbor preset made of a value `before` that passed FHIR validation passes
 * too, checked only where its shape changed (issue 27 §3: a bundle changed by de-identification is checked only where
 * it changed).
 *
 * The preset changes a value in two ways. It replaces strings by others that keep their type's form — a pseudonym (a
 * UUID's form: a valid id, string, uri or code), a hashed reference (the same type, a UUID for the id, one per
 * original, so distinct ones stay distinct and references still resolve), a date shifted by one patient's offset (the
 * same precision and format; a period's ends keep their order), a birth date cut to its year, a ZIP cut to three
 * digits, free text with tokens (`[NAME]`: no space, never empty) in place of what it found, and never in the coded and
 * structural fields (fhir-actions.ts NOT_TEXT) — none of which a FHIR R4 rule can tell from the original. And it
 * removes elements, which can break a rule (a cardinality, an invariant such as pat-1's "a contact has some detail").
 * So: the two are compared by shape (the same keys, array lengths and kinds of value, recursively); a resource of a
 * Bundle's entries whose shape differs is validated alone, and a change outside them (the Bundle's own elements, an
 * entry added or gone) validates the whole. User rules can do more (a hash of a date) and are not taken here.
 * still-valid.test.ts holds it to the full validation of every copy of the samples, and shows a removal caught.
 */
export function stillValid(before: unknown, after: unknown): boolean {
  const changed: Json[] = [];
  const bundle = isObject(before) && before.resourceType === 'Bundle';
  const check = bundle ? (sameBundle(before, after, changed) ? changed : [after]) : sameShape(before, after) ? [] : [after];
  return check.every((r) => validateFhir(r, { bindings: false }).every((i) => i.severity !== 'error'));
}

/** Whether a Bundle kept its shape outside its entries' resources; those whose shape changed are collected into `changed`. */
function sameBundle(before: Json, after: unknown, changed: Json[]): boolean {
  const keys = isObject(after) ? sharedKeys(before, after) : undefined;
  if (!keys) return false;
  const b = after as Json;
  for (const k of keys) {
    if (k !== 'entry' ? !sameShape(before[k], b[k]) : !sameEntries(before[k], b[k], changed)) return false;
  }
  return true;
}

function sameEntries(before: unknown, after: unknown, changed: Json[]): boolean {
  if (!Array.isArray(before) || !Array.isArray(after) || before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) {
    const e = before[i] as unknown;
    const f = after[i] as unknown;
    const keys = isObject(e) && isObject(f) ? sharedKeys(e, f) : undefined;
    if (!keys) return false;
    for (const k of keys) {
      const [r, s] = [(e as Json)[k], (f as Json)[k]];
      if (k !== 'resource') {
        if (!sameShape(r, s)) return false;
      } else if (isObject(r) && r.resourceType === 'Bundle') {
        if (!sameBundle(r, s, changed)) return false;
      } else if (!sameShape(r, s)) {
        if (!isObject(s)) return false;
        changed.push(s);
      }
    }
  }
  return true;
}

/** The same keys, array lengths and kinds of value (string, number, boolean, null, object, array), recursively. */
function sameShape(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === null || b === null ? a === b : typeof a === typeof b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameShape(a[i], b[i])) return false;
    return true;
  }
  const keys = sharedKeys(a as Json, b as Json);
  if (!keys) return false;
  for (const k of keys) if (!sameShape((a as Json)[k], (b as Json)[k])) return false;
  return true;
}

/** The keys of `a` whose value is not undefined, if `b` has exactly those; undefined when their keys differ. */
function sharedKeys(a: Json, b: Json): string[] | undefined {
  const keys: string[] = [];
  for (const k in a) if (a[k] !== undefined) keys.push(k);
  let n = 0;
  for (const k in b) if (b[k] !== undefined) n++;
  if (n !== keys.length) return undefined;
  for (const k of keys) if (b[k] === undefined) return undefined;
  return keys;
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
