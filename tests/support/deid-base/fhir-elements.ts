import model from 'fhirpath/fhir-context/r4';

/**
 * A resource's elements as fhirpath.js (5.2) sees them in `descendants()`, each with the R4 type it gives it:
 * a port of its `children()` and `makeChildResNodes()` without their per-node objects and type lookups. One walk
 * per resource answers every `descendants().ofType(T)` and `descendants().where(url = '…')` of the preset, where
 * fhirpath.js walked the whole resource again for each (most of de-identification's time).
 */

type Json = Record<string, unknown>;

export interface Element {
  /** The value (undefined when only its `_name` sibling is there) */
  data: unknown;
  /** The `_name` sibling: a primitive's id and extensions */
  extra: unknown;
  /** The model path fhirpath.js gives it (`Patient.contact`, `HumanName`…), null outside the model */
  path: string | null;
  /** Its R4 type, null when the model does not say */
  type: string | null;
  parent: Element | null;
  prop: string | null;
  index: number | null;
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isSome = (x: unknown) => x !== null && x !== undefined && !(Array.isArray(x) && x.length === 0);
type Lookup = Record<string, unknown> | null | undefined;

function element(data: unknown, parent: Element, path: string | null, extra: unknown, type: string | null, prop: string, index: number | null): Element {
  const resourceType = (data as Lookup)?.resourceType;
  // a contained resource starts its own paths, as the resource does
  if (resourceType) return { data, extra: extra || null, path: resourceType as string, type: resourceType as string, parent, prop, index };
  return { data, extra: extra || null, path: path || null, type: type || null, parent, prop, index };
}

/** Where a field of an element at `path` leads in the model, before a choice type is picked (see childElements). */
export interface Step {
  path: string;
  choices?: string[];
  type: string | null;
  typedPath: string;
}
// the model's answers per path and field, kept: the same few hundred come back in every resource
const steps = new Map<string, Map<string, Step>>();
const typed = new Map<string, Step>();
let kept = 0;

function typedStep(path: string): Step {
  let s = typed.get(path);
  if (!s) typed.set(path, (s = { path, type: model.path2Type[path] || null, typedPath: model.path2TypeWithoutElements[path] || path }));
  return s;
}

/** Where field `prop` of an element at model path `parentPath` leads (cached per path and field). */
export function step(parentPath: string, prop: string): Step {
  if (kept > 100_000) ([steps, typed].forEach((m) => m.clear()), (kept = 0));
  let byProp = steps.get(parentPath);
  if (!byProp) steps.set(parentPath, (byProp = new Map()));
  let s = byProp.get(prop);
  if (!s) {
    kept++;
    let path = parentPath + '.' + prop;
    path = model.pathsDefinedElsewhere[path] || path;
    const choices = model.choiceTypePaths[path];
    s = choices ? { path, choices, type: null, typedPath: path } : typedStep(prop === 'extension' ? 'Extension' : path);
    byProp.set(prop, s);
  }
  return s;
}

/**
 * The elements fhirpath.js makes for `prop` of `node` (its makeChildResNodes), appended to `out`; without the
 * plain strings, numbers and booleans of primitive types (no `_` sibling) when `skipPlain`: they have no
 * children, no type a rule asks for and no url.
 */
export function childElements(node: Element, prop: string, out: Element[] = [], skipPlain = false): Element[] {
  const data = node.data as Lookup;
  let path: string | null = null;
  let type: string | null = null;
  let value: unknown;
  let extra: unknown;
  if (node.path) {
    let s = step(node.path, prop);
    if (s.choices) {
      let picked = s.path;
      for (const t of s.choices) {
        value = data?.[prop + t];
        extra = data?.['_' + prop + t];
        if (value !== undefined || extra !== undefined) {
          picked += t;
          break;
        }
      }
      s = typedStep(picked);
    } else {
      value = data?.[prop];
      extra = data?.['_' + prop];
      if (value === undefined && extra === undefined) value = (node.extra as Lookup)?.[prop];
    }
    type = s.type;
    path = s.typedPath;
  } else {
    value = data?.[prop];
    extra = data?.['_' + prop];
    if (value === undefined && extra === undefined) value = (node.extra as Lookup)?.[prop];
  }
  if (!isSome(value) && !isSome(extra)) return out;
  if (Array.isArray(value)) {
    const extras = extra as unknown[] | undefined;
    value.forEach((x, i) => {
      const xExtra = extras && extras[i];
      if (!(skipPlain && isPlain(x, xExtra, type))) out.push(element(x, node, path, xExtra, type, prop, i));
    });
    for (let i = value.length; i < (extras?.length || 0); i++) out.push(element(null, node, path, extras![i], type, prop, i));
    return out;
  }
  if (value == null && Array.isArray(extra)) {
    extra.forEach((x, i) => out.push(element(null, node, path, x, type, prop, i)));
    return out;
  }
  if (!(skipPlain && isPlain(value, extra, type))) out.push(element(value, node, path, extra, type, prop, null));
  return out;
}

/** A primitive value without children where the model expects one (or says nothing): never what a rule selects. */
function isPlain(value: unknown, extra: unknown, type: string | null): boolean {
  // /^[a-z]|^System\./ without a regex: this runs for every value of a resource
  const c = type === null ? 0 : type.charCodeAt(0);
  const primitiveType = type === null || (c >= 97 && c <= 122) || type.startsWith('System.');
  return primitiveType && !extra && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean');
}

/** Values fhirpath.js would not see as JSON (a removed marker, a nested array): the walk gives up on them. */
function plain(v: unknown): boolean {
  return v === null || v === undefined || (typeof v !== 'symbol' && typeof v !== 'function' && typeof v !== 'bigint' && !Array.isArray(v));
}

/**
 * Every element under a resource in `descendants()` order (level by level) but plain values (see childElements),
 * or undefined when fhirpath.js would see the resource differently (no resourceType, values that are not JSON):
 * then ask fhirpath.js.
 */
export function descendants(resource: Json): Element[] | undefined {
  if (typeof resource.resourceType !== 'string' || !resource.resourceType) return undefined;
  const root: Element = { data: resource, extra: null, path: resource.resourceType, type: resource.resourceType, parent: null, prop: null, index: null };
  const out: Element[] = [];
  const queue: Element[] = [root];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    if (i > 0) out.push(node);
    if (!plain(node.data) || !plain(node.extra) || (node.type !== null && typeof node.type !== 'string')) return undefined;
    const data = node.data;
    if (typeof data === 'object' && data !== null) {
      for (const prop in data) {
        if (prop.startsWith('_')) {
          const bare = prop.slice(1);
          if (!own(data, bare)) childElements(node, bare, queue, true);
        } else if (prop !== 'resourceType') childElements(node, prop, queue, true);
      }
    } else if (typeof node.extra === 'object' && node.extra !== null) {
      for (const prop in node.extra) childElements(node, prop, queue, true);
    }
  }
  return out;
}

const SYSTEM_NAMES = new Set(['Boolean', 'String', 'Integer', 'Long', 'Decimal', 'Date', 'DateTime', 'Time', 'Quantity']);
const derived = new Map<string, Set<string>>();

/**
 * The R4 types fhirpath.js's `ofType(type)` keeps: the type and those derived from it. Only for the model's
 * complex types (undefined for others): a name that is also a System type (`String`, `Quantity`…) matches more.
 */
export function typesOf(type: string): Set<string> | undefined {
  // the types already asked first: this runs for every element a rule's ofType() meets
  const known = derived.get(type);
  if (known) return known;
  if (!/^[A-Z]/.test(type) || SYSTEM_NAMES.has(type) || !model.type2Parent[type]) return undefined;
  const types = new Set([type]);
  for (const t of Object.keys(model.type2Parent)) for (let p: string | undefined = t; p; p = model.type2Parent[p]) if (p === type) types.add(t);
  derived.set(type, types);
  return types;
}

/** The elements of one resource, with what the preset asks of them kept once. */
export class ElementIndex {
  private readonly byType = new Map<string, Element[]>();

  private constructor(readonly elements: Element[]) {
    for (const e of elements) {
      if (e.type === null) continue;
      const list = this.byType.get(e.type);
      if (list) list.push(e);
      else this.byType.set(e.type, [e]);
    }
  }

  /** The index of a resource, or undefined when fhirpath.js must answer (see `descendants`). */
  static of(resource: Json): ElementIndex | undefined {
    const all = descendants(resource);
    return all && new ElementIndex(all);
  }

  /** `descendants().ofType(type)`, for a complex type (see typesOf) */
  ofType(type: string): Element[] {
    const types = typesOf(type);
    if (!types) throw new Error(`ofType(${type}) is not answered by the element index`);
    if (types.size === 1) return this.byType.get(type) ?? [];
    return this.elements.filter((e) => e.type !== null && types.has(e.type));
  }

  /** `descendants().where(url = 'url')`, on the values as they are now */
  withUrl(url: string): Element[] {
    return this.elements.filter((e) => {
      if (e.data && typeof e.data === 'object' && typeof (e.data as Json).url === 'string') return (e.data as Json).url === url;
      const urls = childElements(e, 'url');
      return urls.length === 1 && urls[0]!.data === url;
    });
  }

  /** `…select(a | b | c)` on some elements: their values of those fields, in that order (duplicates kept) */
  static values(elements: Element[], fields: readonly string[]): unknown[] {
    const out: unknown[] = [];
    for (const e of elements) for (const f of fields) for (const c of childElements(e, f)) if (c.data != null) out.push(c.data);
    return out;
  }
}
