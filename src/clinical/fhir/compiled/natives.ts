import type { TypedValue } from '@medplum/core';
import type { Vars } from './fhirpath';
import { isEmptyValue, type Json, planOf, type Prop } from './schema';

/**
 * Hand-written answers for the R4 invariants a feed's Bundle meets on every validation (the Bundle's own, over every
 * entry, and each entry's), where the compiled FHIRPath walked typed values for what a loop over the JSON answers:
 * about a sixth of a transaction bundle's validation before. Each answers only the plain shapes — strings where a
 * string is expected, objects with keys, no `_x` primitive extensions, no empty strings — and returns undefined for
 * anything else, which the compiled form and then @medplum/core's interpreter evaluate as before. Keyed by the
 * expression's exact text: another version of an invariant is not answered here. compiled/agreement.test.ts holds them
 * to the reference on every sample and every broken variant of them.
 */

type Native = (value: unknown, vars: Vars) => boolean | undefined;

const BAIL = undefined;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasKeys(o: Json): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return true;
  return false;
}

/** `x.exists()` of a complex property (a BackboneElement or a resource): true, false, or undefined for an unusual shape. */
function complexExists(o: Json, key: string): boolean | undefined {
  if (o[`_${key}`] !== undefined) return BAIL;
  const v = o[key];
  if (v === undefined) return false;
  return isObject(v) ? hasKeys(v) : BAIL;
}

/** A plain string property (not empty, no primitive extension); null when absent; undefined for anything else. */
function plainString(o: Json, key: string): string | null | undefined {
  if (o[`_${key}`] !== undefined) return BAIL;
  const v = o[key];
  if (v === undefined) return null;
  return typeof v === 'string' && v !== '' ? v : BAIL;
}

/** The entries of a Bundle as plain objects ([] when it has none), or undefined for an unusual shape. */
function entriesOf(bundle: unknown): Json[] | undefined {
  if (!isObject(bundle) || bundle._entry !== undefined) return BAIL;
  const entry = bundle.entry;
  if (entry === undefined) return [];
  if (!Array.isArray(entry)) return BAIL;
  for (const e of entry) if (!isObject(e)) return BAIL;
  return entry as Json[];
}

/** `type` of a Bundle when plain (the context, or `%resource`). */
function bundleType(v: unknown): string | undefined {
  return isObject(v) ? (plainString(v, 'type') ?? BAIL) : BAIL;
}

/** bdl-3 and bdl-4: every entry has `key` exactly when the Bundle's type is one of `types`. */
function presentWhen(key: string, types: string[]): Native {
  return (value, vars) => {
    const entries = entriesOf(value);
    if (!entries) return BAIL;
    if (entries.length === 0) return true;
    const type = bundleType((vars['%resource'] as TypedValue | undefined)?.value);
    if (type === undefined) return BAIL;
    const wanted = types.includes(type);
    let all = true;
    for (const e of entries) {
      const has = complexExists(e, key);
      if (has === undefined) return BAIL;
      if (has !== wanted) all = false;
    }
    return all;
  };
}

/** `type = 'X' implies …`: true whenever the type is plainly another. */
function onlyFor(type: string): Native {
  return (value) => {
    const t = bundleType(value);
    return t !== undefined && t !== type ? true : BAIL;
  };
}

let extensionValue: Prop | undefined;

/**
 * ext-1 (an Extension): `extension` and `value[x]` are not both there nor both missing (exists(): some values, none
 * empty). Plain shapes only: no `_` key, `extension` absent or a list without holes, `value[x]` (its first type present,
 * in the element's order) not a list.
 */
function ext1(value: unknown): boolean | undefined {
  if (!isObject(value)) return BAIL;
  for (const k in value) if (k.charCodeAt(0) === 95) return BAIL;
  const list = value.extension;
  let extensions: boolean;
  if (list === undefined) extensions = false;
  else if (!Array.isArray(list)) return BAIL;
  else {
    // exists(): at least one value, and none of them empty
    extensions = list.length > 0;
    for (let i = 0; i < list.length; i++) {
      if (list[i] === undefined) return BAIL;
      if (isEmptyValue(list[i])) extensions = false;
    }
  }
  extensionValue ??= planOf('Extension')?.nav.get('value');
  if (!extensionValue) return BAIL;
  let valued = false;
  for (const c of extensionValue.choices) {
    const v = value[c.key];
    if (v === undefined) continue;
    if (Array.isArray(v)) return BAIL;
    valued = !isEmptyValue(v);
    break;
  }
  return extensions !== valued;
}

const NATIVES: Record<string, Native> = {
  // ext-1
  'extension.exists() != value.exists()': ext1,
  // bdl-1
  "total.empty() or (type = 'searchset') or (type = 'history')": (value) =>
    isObject(value) && value.total === undefined && value._total === undefined ? true : BAIL,
  // bdl-2
  "entry.search.empty() or (type = 'searchset')": (value) => {
    const entries = entriesOf(value);
    return entries && entries.every((e) => e.search === undefined && e._search === undefined) ? true : BAIL;
  },
  // bdl-3, bdl-4
  "entry.all(request.exists() = (%resource.type = 'batch' or %resource.type = 'transaction' or %resource.type = 'history'))": presentWhen('request', [
    'batch',
    'transaction',
    'history',
  ]),
  "entry.all(response.exists() = (%resource.type = 'batch-response' or %resource.type = 'transaction-response' or %resource.type = 'history'))": presentWhen(
    'response',
    ['batch-response', 'transaction-response', 'history'],
  ),
  // bdl-5 (an entry)
  'resource.exists() or request.exists() or response.exists()': (value) => {
    if (!isObject(value)) return BAIL;
    for (const key of ['resource', 'request', 'response']) if (complexExists(value, key) === true) return true;
    return BAIL;
  },
  // bdl-7: the fullUrls (each with its resource's versionId) are distinct, unless a history
  "(type = 'history') or entry.where(fullUrl.exists()).select(fullUrl&resource.meta.versionId).isDistinct()": (value) => {
    const type = bundleType(value);
    if (type === undefined) return BAIL;
    if (type === 'history') return true;
    const entries = entriesOf(value);
    if (!entries) return BAIL;
    const seen = new Set<string>();
    let distinct = true;
    for (const e of entries) {
      const fullUrl = plainString(e, 'fullUrl');
      if (fullUrl === undefined) return BAIL;
      if (fullUrl === null) continue;
      if (e._resource !== undefined) return BAIL;
      let version: string | null | undefined = null;
      const resource = e.resource;
      if (resource !== undefined) {
        if (!isObject(resource) || typeof resource.resourceType !== 'string' || resource._meta !== undefined) return BAIL;
        const meta = resource.meta;
        if (meta !== undefined) {
          if (!isObject(meta)) return BAIL;
          version = plainString(meta, 'versionId');
          if (version === undefined) return BAIL;
        }
      }
      const key = version === null ? fullUrl : fullUrl + version;
      if (seen.has(key)) distinct = false;
      seen.add(key);
    }
    return distinct;
  },
  // bdl-8 (an entry)
  "fullUrl.exists() implies fullUrl.contains('/_history/').not()": (value) => {
    if (!isObject(value)) return BAIL;
    const fullUrl = plainString(value, 'fullUrl');
    if (fullUrl === undefined) return BAIL;
    return fullUrl === null || !fullUrl.includes('/_history/');
  },
  // bdl-9, bdl-10, bdl-11, bdl-12
  "type = 'document' implies (identifier.system.exists() and identifier.value.exists())": onlyFor('document'),
  "type = 'document' implies (timestamp.hasValue())": onlyFor('document'),
  "type = 'document' implies entry.first().resource.is(Composition)": onlyFor('document'),
  "type = 'message' implies entry.first().resource.is(MessageHeader)": onlyFor('message'),
};

/** The hand-written answer of an invariant's expression, when there is one. */
export function nativeOf(expression: string): Native | undefined {
  return Object.prototype.hasOwnProperty.call(NATIVES, expression) ? NATIVES[expression] : undefined;
}
