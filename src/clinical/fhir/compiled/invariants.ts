import { evalFhirPathTyped, type FhirPathAtom, parseFhirPath, toTypedValue, type TypedValue } from '@medplum/core';
import { compile, type Fn, readsOnly, type Vars } from './fhirpath';
import { nativeOf } from './natives';
import { planOf } from './schema';

/**
 * The R4 invariants as the compiled validator checks them: each expression parsed and compiled once per process
 * (fhirpath.ts), a guard per type of context that answers without evaluating when a value lacks every property the
 * expression reads, and @medplum/core's interpreter where the compiled form does not answer.
 */

export interface Invariant {
  key: string;
  expression: string;
  /** The compiled form, or undefined when the expression is outside the subset. */
  fn?: Fn;
  atom: FhirPathAtom;
  /** What readsOnly found: the names of the properties read, or undefined. */
  reads?: string[];
  /** Its hand-written answer for plain values (natives.ts), when it has one. */
  native?: (value: unknown, vars: Vars) => boolean | undefined;
  /** Its guard per type of context. */
  guards?: Map<string, Guard>;
}

const invariants = new Map<string, Invariant>();

/** The invariant of an expression, compiled once per process. */
export function invariantOf(key: string, expression: string): Invariant {
  let inv = invariants.get(expression);
  if (!inv) {
    const atom = parseFhirPath(expression);
    const fn = compile(atom);
    const reads = new Set<string>();
    const native = nativeOf(expression);
    inv = { key, expression, atom, ...(native ? { native } : {}), ...(fn ? { fn } : {}), ...(fn && readsOnly(atom, true, reads) ? { reads: [...reads] } : {}) };
    invariants.set(expression, inv);
  }
  return inv;
}

interface Guard {
  /** The JSON keys of the properties read (`contained`, `_contained`); null when the type has no plan for one of them. */
  keys: string[] | null;
  /** The result on an empty value of the type, once known. */
  empty?: boolean;
}

function guardOf(inv: Invariant, type: string): Guard {
  const byType = (inv.guards ??= new Map());
  let guard = byType.get(type);
  if (!guard) {
    const plan = planOf(type);
    const props = inv.reads!.map((name) => plan?.nav.get(name));
    guard = { keys: props.every((p) => p) ? props.flatMap((p) => p!.choices.flatMap((c) => [c.key, c.extKey])) : null };
    byType.set(type, guard);
  }
  return guard;
}

const UCUM_ONLY: Vars = { '%ucum': toTypedValue('http://unitsofmeasure.org') };

/**
 * The invariant's result on a value of `type` that has none of the properties it reads, when that is the case: the
 * result it has on an empty value of the type, computed once. Undefined when it must be evaluated.
 */
export function known(inv: Invariant, value: unknown, type: string): boolean | undefined {
  if (!inv.reads || !value || typeof value !== 'object') return undefined;
  const guard = guardOf(inv, type);
  if (!guard.keys || !absent(value as Record<string, unknown>, guard.keys)) return undefined;
  if (guard.empty === undefined) {
    try {
      guard.empty = evaluate(inv, { type, value: {} }, UCUM_ONLY);
    } catch {
      return undefined; // evaluated on the value itself, it raises its error there
    }
  }
  return guard.empty;
}

/**
 * Whether the invariant holds on `value` (its result is exactly one `true`), as @medplum/core's validator decides;
 * throws what its evaluation throws.
 */
export function holds(inv: Invariant, value: TypedValue, vars: Vars): boolean {
  return (typeof value.type === 'string' ? known(inv, value.value, value.type) : undefined) ?? evaluate(inv, value, vars);
}

function absent(v: Record<string, unknown>, keys: string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (v[keys[i]!] !== undefined) return false;
  return true;
}

export function evaluate(inv: Invariant, value: TypedValue, vars: Vars): boolean {
  if (inv.native) {
    const answer = inv.native(value.value, vars);
    if (answer !== undefined) return answer;
  }
  if (inv.fn) {
    try {
      const r = inv.fn([value], vars);
      return r.length === 1 && r[0]!.value?.valueOf() === true;
    } catch {
      // a Bail, a type without a plan, or an error the interpreter raises too: it answers, or raises it in its own words
    }
  }
  const r = evalFhirPathTyped(inv.atom, [value], vars);
  return r.length === 1 && r[0]!.value === true;
}
