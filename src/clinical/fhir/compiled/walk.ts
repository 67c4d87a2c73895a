import { isResourceType, toTypedValue, type TypedValue } from '@medplum/core';
import { codeIssue, listedValueSet } from '../binding-codes';
import type { FhirIssue } from '../validate';
import type { Vars } from './fhirpath';
import { evaluate, known } from './invariants';
import { brokenNested, isNestedResource, nestedIssues } from './nested';
import {
  choiceKeyOf,
  type CompiledChoice,
  type KeyInfo,
  type CompiledProp,
  compiledPlan,
  type CompiledPlan,
  hasContent,
  isBase64,
  isPrimitive,
  PRIMITIVES,
  type PrimitiveCheck,
} from './plan';
import { nullsOf, unwalked } from './nulls';
import { type At, crawlPath, path, pathOf } from './paths';
import { structure, type State } from './state';
import { isEmptyValue as isEmpty, isResourceValue, itemType, type Json, resolve } from './schema';

/**
 * The compiled validator's walk: what @medplum/core's ResourceValidator and its crawler do to a resource, in the same
 * order with the same words and paths — nulls, then each property of each object in schema order (presence,
 * array or single, cardinality, invariants, reference targets, primitive formats, required codes), then the object's
 * unknown properties — and what validate.ts adds (required codes; resource-invariants.ts's nested invariants), in one
 * pass over the value with the plans of plan.ts. Paths are built only for the issues found.
 */

const UCUM: TypedValue = toTypedValue('http://unitsofmeasure.org');
const STRUCTURE_DEFINITION = /http:\/\/hl7\.org\/fhir\/StructureDefinition\/([A-Za-z]+)\b/g;

function invariants(s: State, prop: Pick<CompiledProp, 'invariants'>, value: unknown, type: string, at: At): void {
  let vars: Vars | undefined;
  for (const c of prop.invariants) {
    let ok = known(c.invariant, value, type);
    if (ok === undefined) {
      if (!vars) {
        vars = { '%context': { type, value }, '%ucum': UCUM, '%rootResource': s.root };
        const resource = s.resources[s.resources.length - 1];
        if (resource) vars['%resource'] = resource;
      }
      try {
        ok = evaluate(c.invariant, vars['%context']!, vars);
      } catch {
        s.issues.push({ severity: 'error', code: 'processing', path: path(at), message: 'Error evaluating invariant expression' });
        ok = false;
      }
    }
    if (!ok) {
      s.issues.push({ severity: 'error', code: 'invariant', path: path(at), message: `Constraint ${c.invariant.key} not met: ${c.description}` });
      return;
    }
  }
}

function rootInvariants(s: State, plan: CompiledPlan, resource: Json, at: At): void {
  if (plan.invariants.length) invariants(s, plan, resource, plan.name, at);
}

function referenceTarget(s: State, prop: CompiledProp, value: unknown, at: At): void {
  const targets = prop.references;
  if (!targets || targets.any || !value || typeof value !== 'object' || !('reference' in value)) return;
  const reference = (value as { reference: unknown }).reference;
  if (typeof reference !== 'string' || reference.startsWith('#')) return;
  const end = reference.includes('?') ? reference.indexOf('?') : reference.indexOf('/');
  const type = end < 0 ? reference : reference.slice(0, end);
  if (!type || targets.types.has(type)) return;
  const message = `Invalid reference: got "${type}", expected "${prop.targetProfiles!.join('", "')}"`.replace(STRUCTURE_DEFINITION, '$1');
  s.issues.push({ severity: 'warning', code: 'structure', path: path(at), message });
}

function primitive(s: State, value: unknown, type: string, check: PrimitiveCheck | undefined, at: At): void {
  let prim: unknown = value;
  let hasPrim = true;
  let extension: Json | undefined;
  if (value && typeof value === 'object') {
    const pv = value.valueOf();
    if (pv === value) {
      hasPrim = false;
      extension = value as Json;
    } else {
      prim = pv;
      const own = new Set(Object.keys(pv as object));
      const entries = Object.entries(value).filter(([k]) => !own.has(k));
      if (entries.length) extension = Object.fromEntries(entries);
    }
  }
  if (hasPrim) {
    if (!check) return structure(s, at, `Invalid JSON type: ${type} is not a valid FHIR type`);
    const expected = check.expected;
    if (typeof prim !== expected) {
      if (prim !== null) structure(s, at, `Invalid JSON type: expected ${expected}, but got ${typeof prim}`);
      return;
    }
    if (expected === 'string') {
      const str = prim as string;
      if (!hasContent(str)) structure(s, at, 'String must contain non-whitespace content');
      else if (str.length > 1024 * 1024) structure(s, at, 'String cannot be larger than 1 MB');
      else if (check.regex && !(type === 'base64Binary' ? isBase64(str) : check.regex.test(str))) structure(s, at, `Invalid ${type} format`);
    } else if (expected === 'number') {
      const n = prim as number;
      if (Number.isNaN(n) || !Number.isFinite(n)) structure(s, at, 'Invalid numeric value');
      else if (check.integer && !Number.isInteger(n)) structure(s, at, 'Expected number to be an integer');
      else if (type === 'positiveInt' && n <= 0) structure(s, at, 'Expected number to be positive');
      else if (type === 'unsignedInt' && n < 0) structure(s, at, 'Expected number to be non-negative');
    }
  }
  // the value's own extensions, checked as an Element; resource-invariants.ts does not walk them this way (crawl())
  if (extension) walkObject(s, extension, compiledPlan('Element'), { ...at, crawl: path(at) }, false);
}

function visit(s: State, prop: CompiledProp, value: unknown, type: string, c: CompiledChoice, at: At): void {
  if (prop.invariants.length) invariants(s, prop, value, type, at);
  if (type === 'Reference') referenceTarget(s, prop, value, at);
  // the choice's type, but for a contained resource (typed by its resourceType: never a primitive)
  if (type === c.valueType ? c.primitive : isPrimitive(type)) primitive(s, value, type, type === c.valueType ? c.check : PRIMITIVES.get(type), at);
  else if (isEmpty(value)) structure(s, at, 'Invalid empty non-primitive value');
  if (prop.binding && s.bindings && prop.terminology.has(type)) code(s, prop, value, type, at);
}

/** The code of a required binding not in its value set (when it can be listed). */
function code(s: State, prop: CompiledProp, value: unknown, type: string, at: At): void {
  const vs = prop.valueSet === undefined ? (prop.valueSet = listedValueSet(prop.binding!) ?? null) : prop.valueSet;
  const issue = vs && codeIssue(vs, type, value, '');
  if (issue) s.codes.push({ ...issue, path: path(at) });
}

function crawl(s: State, prop: CompiledProp, value: unknown, type: string, c: CompiledChoice, at: At, hook: boolean): void {
  if (type === c.valueType ? c.primitive : isPrimitive(type)) {
    // an object given for a primitive: @medplum/core checks it as an Element (in primitive()); resource-invariants.ts
    // walks it as any object
    if (hook && value && typeof value === 'object' && value.valueOf() === value) unwalked(s, value, pathOf(at, true));
    return;
  }
  walkObject(s, value, type === prop.type ? (prop.plan ??= compiledPlan(type)) : compiledPlan(type), at, hook);
}

/** The choice a property takes in `o` (the first type present), as resolve() finds it. */
function chosen(o: Json, prop: CompiledProp): CompiledChoice {
  const choices = prop.choices;
  for (let i = 0; i < choices.length - 1; i++) if (o[choices[i]!.key] !== undefined || o[choices[i]!.extKey] !== undefined) return choices[i]!;
  return choices[choices.length - 1]!;
}

/**
 * `own`: the value of the choice's key when the walk met it there (else it is looked up); `underscore`: whether the
 * object has any `_` key (else no primitive extension is looked for).
 */
function walkProp(s: State, o: Json, prop: CompiledProp, choice: CompiledChoice, own: unknown, underscore: boolean, up: At, hook: boolean): void {
  if (!underscore || !o[choice.extKey]) {
    // the value as it is, in the shapes that give no issue of the property itself: each value taken by walkValue()
    if (Array.isArray(own)) {
      const n = own.length;
      if (n > 0 && prop.isArray && n >= prop.min && n <= prop.max) {
        for (let i = 0; i < n; i++) walkValue(s, prop, choice, own[i], up, i, hook, true);
        return;
      }
    } else if (!prop.isArray && prop.min <= 1 && prop.max >= 1 && !isEmpty(own)) return walkValue(s, prop, choice, own, up, -1, hook, false);
  }
  walkPropAsReference(s, o, prop, choice, own, underscore, up, hook);
}

/** walkProp's every other case: a primitive extension merged in, a value missing, a list where one is expected… */
function walkPropAsReference(s: State, o: Json, prop: CompiledProp, choice: CompiledChoice, own: unknown, underscore: boolean, up: At, hook: boolean): void {
  const merged = underscore && !!o[choice.extKey];
  // without a primitive extension to merge, the value is the key's, as resolve() would find it
  const r = merged ? resolve(o, prop) : isEmpty(own) ? undefined : { value: own, type: choice.valueType };
  if (!r) {
    if (prop.min > 0) structure(s, `${path(up)}.${prop.name}`, 'Missing required property');
    return;
  }
  // the JSON as it is, where the walk meets a merged value: resource-invariants.ts walks the keys as they are
  if (merged && hook) for (const k of [choice.key, choice.extKey]) unwalked(s, o[k], `${pathOf(up, true)}.${k}`);
  const sub = hook && !merged;
  const values = r.value;
  if (Array.isArray(values)) {
    const n = values.length;
    const ok = prop.isArray;
    if (!ok) structure(s, `${crawlPath(up)}.${prop.name}`, 'Expected single value for property');
    else if (n < prop.min || n > prop.max) structure(s, prop.element.path, cardinality(prop, n));
    for (let i = 0; i < n; i++) {
      const value = values[i];
      const at: At = { up, name: prop.name, key: choice.key, index: i };
      const type = itemType(r.type, value);
      if (ok) visit(s, prop, value, type, choice, at);
      crawl(s, prop, value, type, choice, at, sub);
    }
    return;
  }
  const at: At = { up, name: prop.name, key: choice.key, index: -1 };
  const type = itemType(r.type, values);
  if (prop.isArray) structure(s, `${crawlPath(up)}.${prop.name}`, 'Expected array of values for property');
  else {
    if (1 < prop.min || 1 > prop.max) structure(s, prop.element.path, cardinality(prop, 1));
    visit(s, prop, values, type, choice, at);
  }
  crawl(s, prop, values, type, choice, at, sub);
}

/**
 * One value of a property met as it is, in its place (`index` in the list, -1 for a single value; `item`: whether
 * its emptiness is still to be checked): visit() and crawl(), or what they come to for a choice with a fast way.
 * The `At` of a primitive is made only when it has an issue.
 */
function walkValue(s: State, prop: CompiledProp, choice: CompiledChoice, v: unknown, up: At, index: number, hook: boolean, item: boolean): void {
  const fast = choice.fast;
  if (fast === 'primitive') {
    if (choice.check!.passes(v)) {
      if (choice.bound && s.bindings) code(s, prop, v, choice.valueType, { up, name: prop.name, key: choice.key, index });
      return;
    }
  } else if (fast === 'object' && v !== null && typeof v === 'object' && !Array.isArray(v) && !(item && isEmpty(v))) {
    const at: At = { up, name: prop.name, key: choice.key, index };
    if (prop.references !== undefined && choice.valueType === 'Reference') referenceTarget(s, prop, v, at);
    if (choice.bound && s.bindings) code(s, prop, v, choice.valueType, at);
    walkObject(s, v, (choice.plan ??= compiledPlan(choice.valueType)), at, hook);
    return;
  }
  visitAndCrawl(s, prop, choice, v, up, index, hook);
}

function visitAndCrawl(s: State, prop: CompiledProp, choice: CompiledChoice, v: unknown, up: At, index: number, hook: boolean): void {
  const at: At = { up, name: prop.name, key: choice.key, index };
  const type = itemType(choice.valueType, v);
  visit(s, prop, v, type, choice, at);
  crawl(s, prop, v, type, choice, at, hook);
}

function cardinality(prop: CompiledProp, n: number): string {
  return `Invalid number of values: expected ${prop.min}..${Number.isFinite(prop.max) ? prop.max : '*'}, but found ${n}`;
}

function walkObject(s: State, obj: unknown, plan: CompiledPlan, at: At, hook: boolean): void {
  const isResource = isResourceValue(obj);
  if (isResource) s.resources.push(toTypedValue(obj));
  if (isResource && hook && at.up && isNestedResource(obj)) {
    const issue = brokenNested(obj, () => pathOf(at, true), s.root, false);
    if (issue) s.nested.push(issue);
  }
  // the keys the value has, not every element of the type: what is absent only matters when it is required
  // the required properties found (their bits), when the type has few enough of them
  let found = 0;
  if (obj) {
    const o = obj as Json;
    let seen: Record<string, string> | undefined;
    // Object.keys, not for-in: what the reference reads (for-in also yields what a library adds to String.prototype)
    const keys = Object.keys(o);
    let underscore = false;
    for (let i = 0; i < keys.length; i++) if (keys[i]!.charCodeAt(0) === 95) underscore = true;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = o[key];
      if (hook && (value === null || Array.isArray(value))) nullsOf(s, o, key, value, at);
      if (key === 'resourceType') continue;
      const info = plan.keyInfo[key];
      const prop = info?.prop;
      if (prop) {
        if (value !== undefined) found |= prop.requiredBit;
        const choice = info.only ?? chosen(o, prop);
        // where the walk takes the property up: its value's key, or its extension's when it has no value
        if (key === choice.key) walkProp(s, o, prop, choice, value, underscore, at, hook);
        else if (key === choice.extKey && o[choice.key] === undefined) walkProp(s, o, prop, choice, undefined, true, at, hook);
        if (info.plain) continue;
        // plan.walked(o, key), from the choice taken: a value here means the first choice present is this key's
        const walked = !prop.isChoice || (value === undefined ? plan.walked(o, key) : key === choice.key || key === choice.extKey);
        seen = additional(s, o, key, plan, at, hook, seen, info, walked, underscore);
        continue;
      }
      if (info?.plain) continue;
      seen = additional(s, o, key, plan, at, hook, seen, info, plan.walked(o, key), underscore);
    }
  }
  if (found !== plan.requiredMask || !plan.requiredMask) {
    for (const prop of plan.required)
      if (!(found & prop.requiredBit) && !present(obj, prop)) structure(s, `${path(at)}.${prop.name}`, 'Missing required property');
  }
  if (isResource) s.resources.pop();
}

function present(obj: unknown, prop: CompiledProp): boolean {
  if (!obj) return false;
  const o = obj as Json;
  for (const c of prop.choices) if (o[c.key] !== undefined || o[c.extKey] !== undefined) return true;
  return false;
}

/**
 * Whether the choice element has a value in `obj` (what resolve() finds is not empty); `underscore`: whether `obj` has
 * any `_` key (else no primitive extension is merged, and the first choice present is the value as it is).
 */
function hasValue(obj: Json, prop: CompiledProp, underscore: boolean): boolean {
  if (underscore) return resolve(obj, prop) !== undefined;
  const choices = prop.choices;
  for (let i = 0; i < choices.length; i++) {
    const v = obj[choices[i]!.key];
    if (v !== undefined) return !isEmpty(v);
  }
  return false;
}

/**
 * @medplum/core's check of a key that is not plainly an element: choice types given twice, unknown properties. `info`:
 * what the plan knows of the key (undefined for a key it does not know); `walked`: whether the walk took the property
 * up at this key.
 */
function additional(
  s: State,
  obj: Json,
  key: string,
  plan: CompiledPlan,
  at: At,
  hook: boolean,
  seen: Record<string, string> | undefined,
  info: KeyInfo | undefined,
  walked: boolean,
  underscore: boolean,
) {
  const ck = info ? info.choice : plan.choices.size ? choiceKeyOf(key, plan.choices) : undefined;
  if (hook && !walked) unwalked(s, obj[key], `${pathOf(at, true)}.${key}`);
  if (ck && hasValue(obj, ck.prop, underscore)) {
    seen ??= {};
    const choice = ck.name;
    if (ck.related in seen && seen[ck.related] !== ck.partner) {
      const message = `Type of primitive extension does not match the type of property "${ck.property}"`;
      s.issues.push({ severity: 'warning', code: 'structure', path: choice, message });
    }
    const other = seen[choice];
    if (other) s.issues.push({ severity: 'warning', code: 'structure', path: key, message: `Conflicting choice of type properties: "${key}", "${other}"` });
    seen[choice] = key;
    return seen;
  }
  const elements = plan.elements;
  if (!(key in elements) && !(key.startsWith('_') && key.slice(1) in elements)) structure(s, `${path(at)}.${key}`, `Invalid additional property "${key}"`);
  return seen;
}

/**
 * The issues the reference validator (validate.ts without a profile) finds in a resource: @medplum/core's, the codes
 * of required bindings (with `bindings`), the nested resources' invariants; before dedupe. Where @medplum/core stops
 * (a contained resource of a type it does not know), this throws its OperationOutcomeError: what the reference
 * reports then depends on how far its walk had gone, so the caller asks the reference.
 */
export function compiledIssues(resource: Json, bindings: boolean): FhirIssue[] {
  const root = toTypedValue(resource);
  const s: State = { issues: [], codes: [], nested: [], bindings, resources: [], root };
  const type = resource.resourceType as string;
  if (!isResourceType(type)) return [{ severity: 'error', code: 'structure', path: '', message: 'Invalid resource type' }, ...nestedIssues(resource, root)];
  const plan = compiledPlan(type);
  const top: At = { up: undefined, name: type, key: type, index: -1 };
  s.resources.push(root);
  rootInvariants(s, plan, resource, top);
  const org1 = brokenNested(resource, type, root, true);
  if (org1) s.nested.push(org1);
  walkObject(s, resource, plan, top, true);
  return [...s.issues, ...s.codes, ...s.nested];
}
