import { type Constraint, fhirTypeToJsType, validationRegexes } from '@medplum/core';
import type { listedValueSet } from '../binding-codes';
import { type Invariant, invariantOf } from './invariants';
import { type Choice, type Json, planOrThrow, type Prop } from './schema';

/**
 * What the walk needs of a type, computed once per type on first use: each property with its invariants compiled
 * (compiled/fhirpath.ts), the targets of its references, its required binding; the type's own invariants; and which
 * JSON keys are its elements, for the unknown-property check.
 */

/** The invariants @medplum/core's validator does not evaluate (validation.ts: skippedConstraintKeys). */
const SKIPPED = new Set(['ele-1', 'dom-3', 'org-1', 'sdf-19']);
/** Types a binding applies to (@medplum/core's isTerminologyType). */
const TERMINOLOGY = new Set(['CodeableConcept', 'Coding', 'code', 'Quantity', 'string', 'uri']);
const NONE = new Set<string>();

/** What a primitive type's value must be: its JSON type, @medplum/core's pattern, whether an integer. */
export interface PrimitiveCheck {
  expected: 'string' | 'number' | 'boolean';
  regex: RegExp | undefined;
  integer: boolean;
  /**
   * Whether a value passes every check of walk.ts's primitive() without an issue, for the values that are not objects
   * (no primitive extension merged in): false sends the value to primitive(), which finds what is wrong.
   */
  passes: (value: unknown) => boolean;
}

const INTEGER_TYPES = new Set(['integer', 'positiveInt', 'unsignedInt']);
const MAX_STRING = 1024 * 1024;

const BASE64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[c.charCodeAt(0)] = 1;

/**
 * @medplum/core's base64Binary pattern, `^([A-Za-z\d+/]{4})*([A-Za-z\d+/]{2}==|[A-Za-z\d+/]{3}=)?$`, as a loop: the
 * same strings, in about half the time on attachments (the clinical notes of a record are most of its bytes).
 */
export function isBase64(str: string): boolean {
  const n = str.length;
  if (n % 4 !== 0) return false;
  let end = n;
  if (n && str.charCodeAt(n - 1) === 61) end = str.charCodeAt(n - 2) === 61 ? n - 2 : n - 1;
  for (let i = 0; i < end; i++) {
    const c = str.charCodeAt(i);
    if (c > 127 || !BASE64[c]) return false;
  }
  return true;
}

/** Whether a string has content other than whitespace (`str.trim() !== ''`, without making the trimmed copy). */
export function hasContent(str: string): boolean {
  const c = str.charCodeAt(0);
  return (c > 32 && c < 127) || (str.length > 0 && str.trim() !== '');
}

/** primitive()'s checks of a value of `type` that is not an object, as one function per type (see PrimitiveCheck.passes). */
function passesOf(type: string, expected: PrimitiveCheck['expected'], regex: RegExp | undefined): (value: unknown) => boolean {
  if (expected === 'boolean') return (v) => typeof v === 'boolean';
  if (expected === 'number') {
    const integer = INTEGER_TYPES.has(type);
    const least = type === 'positiveInt' ? 1 : type === 'unsignedInt' ? 0 : -Infinity;
    return integer ? (v) => typeof v === 'number' && Number.isInteger(v) && v >= least : (v) => typeof v === 'number' && Number.isFinite(v);
  }
  const ok = (v: unknown): v is string => typeof v === 'string' && hasContent(v) && v.length <= MAX_STRING;
  if (!regex) return ok;
  if (type === 'base64Binary') return (v) => ok(v) && isBase64(v);
  return (v) => ok(v) && regex.test(v);
}

export const PRIMITIVES = new Map<string, PrimitiveCheck>(
  Object.entries(fhirTypeToJsType).map(([type, expected]) => {
    const regex = validationRegexes[type];
    return [type, { expected, regex, integer: INTEGER_TYPES.has(type), passes: passesOf(type, expected, regex) }];
  }),
);
/** @medplum/core's isPrimitiveType, as a set. */
const PRIMITIVE_TYPES = new Set(['undefined', ...Object.keys(fhirTypeToJsType)]);
export const isPrimitive = (type: string) => PRIMITIVE_TYPES.has(type);

/** A choice of a property with what the walk asks of its type, computed once. */
export interface CompiledChoice extends Choice {
  /** The type of its values as resolve() gives it (Element and BackboneElement: the element's own type). */
  valueType: string;
  primitive: boolean;
  /** The checks of its primitive type (undefined for a complex type, or a primitive @medplum/core has no JSON type for). */
  check: PrimitiveCheck | undefined;
  /**
   * How walk.ts's walkProp may take a value of this choice met as it is (no primitive extension merged in) without
   * visit() and crawl(): `primitive`, a primitive checked by `check.passes` alone; `object`, a complex value walked
   * straight away (its reference target checked when a Reference); both with the codes of a required binding checked
   * when `bound`. `none` when the property has invariants, or the type is Resource (typed by its value), or a primitive
   * without a check.
   */
  fast: 'primitive' | 'object' | 'none';
  /** The plan of its type, for `object`, on first use. */
  plan: CompiledPlan | undefined;
  /** Whether the property's required binding applies to values of this type (its codes are checked). */
  bound: boolean;
}

/** What a JSON key of a type is: the property it belongs to, and whether it is always that property's (never a choice). */
export interface KeyInfo {
  prop: CompiledProp | undefined;
  plain: boolean;
  /** The choice element the additional-property check reads the key as (found by its name alone), when it does. */
  choice: ChoiceKey | undefined;
  /** The property's choice when it has only one (else the walk finds the one taken). */
  only: CompiledChoice | undefined;
}

/**
 * A key the additional-property check reads as a choice element's (`valueString`, `_valueString` → `value[x]`), by the
 * part of its name before a capital: that element, and the names the check compares, computed once per key.
 */
export interface ChoiceKey {
  prop: CompiledProp;
  /** The element's name with the key's `_` (`value[x]`, `_value[x]`). */
  name: string;
  /** The same name for the other half of a primitive (`_value[x]` for `value[x]`, and the reverse). */
  related: string;
  /** The key of the other half (`_valueString` for `valueString`, and the reverse). */
  partner: string;
  /** The element's name without `_`. */
  property: string;
}

/** The choice element a key is read as (the first part before a capital that names one), as @medplum/core reads it. */
export function choiceKeyOf(key: string, choices: Map<string, CompiledProp>): ChoiceKey | undefined {
  const underscore = key.startsWith('_');
  const k = underscore ? key.slice(1) : key;
  for (let i = 1; i <= k.length; i++) {
    if (i < k.length && !(k[i]! >= 'A' && k[i]! <= 'Z')) continue;
    const prop = choices.get(k.slice(0, i));
    if (!prop) continue;
    const name = `${underscore ? '_' : ''}${prop.name}`;
    return { prop, name, related: underscore ? prop.name : `_${prop.name}`, partner: underscore ? k : `_${key}`, property: prop.name };
  }
  return undefined;
}

export interface CompiledInvariant {
  invariant: Invariant;
  description: string;
}

export interface CompiledProp extends Prop {
  choices: CompiledChoice[];
  /** Its bit among the type's required properties (0 when optional, or when the type has more than 30 of them). */
  requiredBit: number;
  invariants: CompiledInvariant[];
  targetProfiles: string[] | undefined;
  /**
   * What @medplum/core's reference check makes of the targets: `any` when it never warns (Resource, or a profile it
   * cannot read such as US Core's), else the resource types it takes.
   */
  references: { any: boolean; types: Set<string> } | undefined;
  /** The value set of a required binding (`url|version`). */
  binding: string | undefined;
  /** Its value set listed (binding-codes.ts), on first use (undefined until then); null when it cannot be. */
  valueSet: ReturnType<typeof listedValueSet> | null | undefined;
  terminology: ReadonlySet<string>;
  isChoice: boolean;
  /** The plan of its type (when it has one type), on first use. */
  plan: CompiledPlan | undefined;
}

export interface CompiledPlan {
  name: string;
  props: CompiledProp[];
  /** The properties with a minimum cardinality above 0. */
  required: CompiledProp[];
  /** The schema's elements object itself: the unknown-property check asks it with `in`, as @medplum/core does. */
  elements: Record<string, unknown>;
  /** Choice elements by the name before `[x]`. */
  choices: Map<string, CompiledProp>;
  /** Keys that are always a property of the type and never read as a choice (`name`, `_name`). */
  keys: Set<string>;
  /** Every JSON key a property can take, to its property. */
  byKey: Map<string, CompiledProp>;
  /** byKey and keys in one look-up (an object without prototype: faster than a Map for the walk's keys). */
  keyInfo: Record<string, KeyInfo | undefined>;
  /** The bits of all required properties (0 when there are more than 30: then each is looked for). */
  requiredMask: number;
  invariants: CompiledInvariant[];
  /** Whether the walk goes through `obj[key]` (a property's key; of a choice, the type it takes). */
  walked(obj: Json, key: string): boolean;
}

function compiledInvariants(constraints: Constraint[] | undefined): CompiledInvariant[] {
  return (constraints ?? [])
    .filter((c) => c.severity === 'error' && !SKIPPED.has(c.key))
    .map((c) => ({ invariant: { ...invariantOf(c.key, c.expression), key: c.key }, description: c.description }));
}

const HL7 = 'http://hl7.org/fhir/StructureDefinition/';
const MEDPLUM = 'https://medplum.com/fhir/StructureDefinition/';

function referencesOf(targets: string[]): { any: boolean; types: Set<string> } {
  const any = targets.some((t) => t === `${HL7}Resource` || (!t.startsWith(HL7) && !t.startsWith(MEDPLUM)));
  return { any, types: new Set(targets.map((t) => t.slice(t.startsWith(HL7) ? HL7.length : MEDPLUM.length))) };
}

const plans = new Map<string, CompiledPlan>();

/** The compiled plan of a type; throws @medplum/core's `Unknown data type` error for a type it does not know. */
export function compiledPlan(type: string): CompiledPlan {
  let plan = plans.get(type);
  if (!plan) {
    plan = build(type);
    plans.set(type, plan);
  }
  return plan;
}

function build(type: string): CompiledPlan {
  const base = planOrThrow(type);
  const props: CompiledProp[] = base.props.map((p) => {
    const e = p.element;
    const targets = e.type.find((t) => t.code === 'Reference')?.targetProfile;
    const required = e.binding?.strength === 'required' && e.binding.valueSet ? e.binding.valueSet : undefined;
    const invariants = compiledInvariants(e.constraints);
    const choices = p.choices.map((c): CompiledChoice => {
      const valueType = c.type === 'Element' || c.type === 'BackboneElement' ? e.type[0]!.code : c.type;
      const primitive = isPrimitive(valueType);
      const check = PRIMITIVES.get(valueType);
      const plain = invariants.length === 0 && valueType !== 'Resource';
      const fast = !plain ? 'none' : primitive ? (check ? 'primitive' : 'none') : 'object';
      const bound = !!required && TERMINOLOGY.has(valueType);
      return { key: c.key, extKey: c.extKey, type: c.type, valueType, primitive, check, fast, plan: undefined, bound };
    });
    return {
      name: p.name,
      element: p.element,
      choices,
      isArray: p.isArray,
      min: p.min,
      max: p.max,
      type: p.type,
      requiredBit: 0,
      invariants,
      targetProfiles: targets,
      references: targets ? referencesOf(targets) : undefined,
      binding: required,
      valueSet: undefined,
      terminology: required ? TERMINOLOGY : NONE,
      isChoice: p.name.endsWith('[x]'),
      plan: undefined,
    };
  });
  const choices = new Map(props.filter((p) => p.isChoice).map((p) => [p.name.slice(0, -3), p]));
  const byKey = new Map<string, CompiledProp>();
  const keys = new Set<string>();
  for (const p of props) {
    for (const c of p.choices) {
      byKey.set(c.key, p);
      byKey.set(c.extKey, p);
    }
    // a key is read as a choice when the part before one of its capitals names a choice element
    const prefixes = [...p.name].flatMap((ch, i) => (i > 0 && ch >= 'A' && ch <= 'Z' ? [p.name.slice(0, i)] : []));
    if (!p.isChoice && ![...prefixes, p.name].some((x) => choices.has(x))) {
      keys.add(p.name);
      keys.add(`_${p.name}`);
    }
  }
  const required = props.filter((p) => p.min > 0);
  let requiredMask = 0;
  if (required.length <= 30) required.forEach((p, i) => (requiredMask |= p.requiredBit = 1 << i));
  const keyInfo = Object.create(null) as Record<string, KeyInfo | undefined>;
  for (const [key, prop] of byKey) {
    const only = prop.choices.length === 1 ? prop.choices[0] : undefined;
    keyInfo[key] = { prop, plain: keys.has(key), choice: choiceKeyOf(key, choices), only };
  }
  for (const key of keys) keyInfo[key] ??= { prop: undefined, plain: true, choice: choiceKeyOf(key, choices), only: undefined };
  if (base.schema.elements && Object.values(base.schema.elements).some((e) => e.pattern || e.fixed || e.slicing)) {
    throw new Error(`The compiled validator does not handle patterns, fixed values or slices (${type}): validate it with a profile`);
  }
  return {
    name: type,
    props,
    required,
    requiredMask,
    keyInfo,
    elements: base.schema.elements,
    choices,
    keys,
    byKey,
    invariants: compiledInvariants(base.schema.constraints),
    walked(obj, key) {
      const p = byKey.get(key);
      if (!p) return false;
      if (!p.isChoice) return true;
      const chosen = p.choices.find((c) => obj[c.key] !== undefined || obj[c.extKey] !== undefined);
      return chosen?.key === key || chosen?.extKey === key;
    },
  };
}
