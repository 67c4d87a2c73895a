import { capitalize, getDataType, type InternalSchemaElement, type InternalTypeSchema, isPrimitiveType, tryGetDataType, type TypedValue } from '@medplum/core';

/**
 * The R4 types as the compiled validator reads them: each InternalTypeSchema of @medplum/core (the R4
 * StructureDefinitions as it parses them) turned once, on first use, into a plan of its properties — the JSON keys
 * each element can take (a choice element's `valueString`, `valueQuantity`… in type order, and their `_` primitive
 * extensions), its cardinality, its primitive checks, its required binding — so that a validation looks nothing up by
 * name. How a property's value is found is @medplum/core's `getTypedPropertyValueWithSchema`, step for step: the
 * reference validator and the FHIRPath of the invariants see the same values this does.
 */

export type Json = Record<string, unknown>;

export interface Choice {
  key: string;
  extKey: string;
  type: string;
}

export interface Prop {
  /** The element's name in the schema (`name`, `value[x]`): the paths the reference names use it. */
  name: string;
  element: InternalSchemaElement;
  choices: Choice[];
  isArray: boolean;
  min: number;
  max: number;
  /** The type when every value has it (not a choice), else undefined. */
  type?: string;
}

export interface Plan {
  name: string;
  schema: InternalTypeSchema;
  props: Prop[];
  byName: Map<string, Prop>;
  /** A property as FHIRPath names it: `name`, and `value` for `value[x]` (@medplum/core's getElementDefinition). */
  nav: Map<string, Prop>;
  /** For the additional-property check: the part of a key before a capital that names a choice element (`value` → value[x]). */
  choicePrefixes: Map<string, number>;
}

const plans = new Map<string, Plan | null>();

function propOf(name: string, element: InternalSchemaElement): Prop {
  const last = element.path.slice(element.path.lastIndexOf('.') + 1);
  const choices = element.type.map((t) => {
    const key = last.replace('[x]', capitalize(t.code));
    return { key, extKey: `_${key}`, type: t.code };
  });
  const single = element.type.length === 1 ? element.type[0]!.code : undefined;
  return { name, element, choices, isArray: !!element.isArray, min: element.min, max: element.max, ...(single ? { type: single } : {}) };
}

/** The plan of a type by name (`Patient`, `PatientContact`, `HumanName`), or undefined when @medplum/core has no such type. */
export function planOf(type: string): Plan | undefined {
  let plan = plans.get(type);
  if (plan === undefined) {
    const schema = tryGetDataType(type);
    plan = schema ? build(type, schema) : null;
    plans.set(type, plan);
  }
  return plan ?? undefined;
}

/** Like `planOf`, but throws as @medplum/core's getDataType does (`Unknown data type: X`, an OperationOutcomeError). */
export function planOrThrow(type: string): Plan {
  // getDataType throws for a type @medplum/core does not know; its declared return type does not say so
  return planOf(type) ?? (getDataType(type) as never);
}

function build(type: string, schema: InternalTypeSchema): Plan {
  const props: Prop[] = [];
  const byName = new Map<string, Prop>();
  const choicePrefixes = new Map<string, number>();
  for (const [name, element] of Object.entries(schema.elements)) {
    const prop = propOf(name, element);
    props.push(prop);
    byName.set(name, prop);
    if (name.endsWith('[x]')) choicePrefixes.set(name.slice(0, -3), props.length - 1);
  }
  const nav = new Map(byName);
  for (const [name, prop] of byName) if (name.endsWith('[x]') && !schema.elements[name.slice(0, -3)]) nav.set(name.slice(0, -3), prop);
  return { name: type, schema, props, byName, nav, choicePrefixes };
}

function assignExtension(target: unknown, extension: unknown): unknown {
  if (!extension) return target;
  if (typeof extension !== 'object') throw new Error('Primitive extension must be an object');
  // @medplum/core assigns into the value itself; a copy here, so that validating never changes the input
  const base = target !== null && typeof target === 'object' ? (Array.isArray(target) ? [...target] : { ...target }) : (target ?? {});
  return Object.assign(base as object, extension);
}

export interface Resolved {
  /** The value (a single one, or the array), with its primitive extensions merged in as @medplum/core does. */
  value: unknown;
  type: string;
}

/**
 * The value of `prop` in `obj` and its type (undefined when absent or empty), as @medplum/core's
 * `getTypedPropertyValue` finds it: the first choice type present, primitive extensions merged.
 */
export function resolve(obj: unknown, prop: Prop): Resolved | undefined {
  if (!obj) return undefined;
  const o = obj as Json;
  let value: unknown;
  let extension: unknown;
  let type = 'undefined';
  const choices = prop.choices;
  if (choices.length === 1) {
    value = o[choices[0]!.key];
    extension = o[choices[0]!.extKey];
    if (value === undefined && extension === undefined) return undefined;
    type = choices[0]!.type;
  } else {
    for (const c of choices) {
      value = o[c.key];
      extension = o[c.extKey];
      if (value !== undefined || extension !== undefined) {
        type = c.type;
        break;
      }
    }
  }
  if (extension) {
    if (Array.isArray(value)) {
      const merged = value.slice();
      const ext = extension as unknown[];
      for (let i = 0; i < Math.max(merged.length, ext.length); i++) merged[i] = assignExtension(merged[i], ext[i]);
      value = merged;
    } else if (!value && Array.isArray(extension)) {
      value = extension.map((e) => assignExtension(undefined, e));
    } else value = assignExtension(value, extension);
  }
  if (isEmptyValue(value)) return undefined;
  if (type === 'Element' || type === 'BackboneElement') type = prop.element.type[0]!.code;
  return { value, type };
}

/** The type of one value of a resolved property: a contained resource is typed by its resourceType. */
export function itemType(type: string, value: unknown): string {
  return type === 'Resource' && isResourceValue(value) ? ((value as Json).resourceType as string) : type;
}

/** @medplum/core's isResource: an object with a resourceType key (of any value). */
export function isResourceValue(value: unknown): boolean {
  return !!value && typeof value === 'object' && 'resourceType' in value;
}

/** The typed values of a property, flat, as FHIRPath navigation gives them (undefined values left out). */
export function navigate(tv: TypedValue, name: string, out: TypedValue[], cache: NavCache): void {
  const value = tv.value;
  if (!value || typeof value !== 'object') return;
  if ((value as Json).resourceType === name && 'resourceType' in value) {
    out.push(tv);
    return;
  }
  let prop = cache.type === tv.type ? cache.prop : undefined;
  if (!prop) {
    prop = planOf(tv.type)?.nav.get(name);
    if (!prop) throw new NoPlan();
    cache.type = tv.type;
    cache.prop = prop;
  }
  const r = resolve(value, prop);
  if (!r) return;
  if (Array.isArray(r.value)) {
    for (const v of r.value) if (v !== undefined) out.push({ type: itemType(r.type, v), value: v });
  } else out.push({ type: itemType(r.type, r.value), value: r.value });
}

/** The property a name found on the last type it was asked of (most expressions meet one type at a place). */
export interface NavCache {
  type?: string;
  prop?: Prop;
}

/** Navigation outside what the plans describe (a type without a schema): the caller hands it to @medplum/core. */
export class NoPlan extends Error {}

/**
 * @medplum/core's isEmpty, without its Object.keys (an array per call): null, undefined, '', an empty array, an
 * object with no own keys (and no positive length).
 */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  const t = typeof v;
  if (t === 'string') return v === '';
  if (t !== 'object') return false;
  if ('length' in (v as object) && (v as { length: number }).length > 0) return false;
  for (const k in v as object) if (Object.prototype.hasOwnProperty.call(v, k)) return false;
  return true;
}

export { isPrimitiveType };
