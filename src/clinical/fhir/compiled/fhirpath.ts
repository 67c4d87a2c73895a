import {
  AndAtom,
  ArithemticOperatorAtom,
  type Atom,
  booleanToTypedValue,
  ConcatAtom,
  ContainsAtom,
  DotAtom,
  EmptySetAtom,
  EqualsAtom,
  fhirPathArrayEquals,
  fhirPathArrayNotEquals,
  FhirPathAtom,
  fhirPathEquals,
  fhirPathIs,
  FunctionAtom,
  ImpliesAtom,
  InAtom,
  IsAtom,
  isQuantity,
  LiteralAtom,
  NotEqualsAtom,
  OrAtom,
  removeDuplicates,
  singleton,
  SymbolAtom,
  toTypedValue,
  type TypedValue,
  UnionAtom,
  XorAtom,
} from '@medplum/core';
import { isEmptyValue as isEmpty, type NavCache, navigate } from './schema';

/**
 * FHIRPath invariants compiled to closures over the raw JSON: the subset the R4 invariants use most (navigation,
 * and/or/xor/implies, = and !=, in, |, &, exists/empty/count/hasValue/first/where/all/select/not/isDistinct,
 * startsWith/contains…), each with @medplum/core's semantics — its singleton rule, its equality (its own functions are
 * called for it), navigation as its getTypedPropertyValue. An expression outside the subset is evaluated by
 * @medplum/core's evaluator, and so is one whose evaluation meets something the compiled form does not model (a type
 * with no schema, a not() of a non-boolean): it throws `Bail` and the interpreter answers instead.
 */

export type Vars = Record<string, TypedValue>;
export type Fn = (input: TypedValue[], vars: Vars) => TypedValue[];

/** The compiled form cannot answer this one: evaluate with @medplum/core instead. */
export class Bail extends Error {}

const TRUE = booleanToTypedValue(true);
const FALSE = booleanToTypedValue(false);
const bool = (b: boolean): TypedValue[] => (b ? TRUE : FALSE);

/** A navigation from the input: names of properties joined by dots. */
function isPath(atom: Atom): boolean {
  if (atom instanceof SymbolAtom) return !atom.name.startsWith('%');
  return atom instanceof DotAtom && isPath(atom.left) && atom.right instanceof SymbolAtom && !atom.right.name.startsWith('%');
}

/**
 * Whether evaluating the expression can neither raise an error nor give more than one boolean (`x.exists()`,
 * `status = 'final'`, and/or/not of such): then `a or b` with `a` true is true without `b`, as in @medplum/core,
 * which evaluates `b` all the same but can do nothing with it.
 */
function safe(atom: Atom): boolean {
  if (atom instanceof DotAtom && atom.right instanceof FunctionAtom && atom.right.args.length === 0) {
    const f = atom.right.name;
    return ((f === 'exists' || f === 'empty' || f === 'hasValue') && isPath(atom.left)) || (f === 'not' && safe(atom.left));
  }
  if (atom instanceof EqualsAtom || atom instanceof NotEqualsAtom) {
    return [atom.left, atom.right].every((a) => a instanceof LiteralAtom || isPath(a));
  }
  if (atom instanceof AndAtom || atom instanceof OrAtom || atom instanceof XorAtom || atom instanceof ImpliesAtom) return safe(atom.left) && safe(atom.right);
  return false;
}

function boolOp(atom: AndAtom | OrAtom | XorAtom | ImpliesAtom, l: Fn, r: Fn): Fn {
  const skip = safe(atom.right);
  if (atom instanceof AndAtom) {
    return (input, vars) => {
      const a = singleton(l(input, vars), 'boolean');
      if (skip && a?.value === false) return FALSE;
      const b = singleton(r(input, vars), 'boolean');
      if (a?.value === true && b?.value === true) return TRUE;
      return a?.value === false || b?.value === false ? FALSE : [];
    };
  }
  if (atom instanceof OrAtom) {
    return (input, vars) => {
      const a = singleton(l(input, vars), 'boolean');
      if (skip && a?.value === true) return TRUE;
      const b = singleton(r(input, vars), 'boolean');
      if (a?.value === false && b?.value === false) return FALSE;
      return a?.value || b?.value ? TRUE : [];
    };
  }
  if (atom instanceof XorAtom) {
    return (input, vars) => {
      const a = singleton(l(input, vars), 'boolean');
      const b = singleton(r(input, vars), 'boolean');
      return !a || !b ? [] : bool(a.value !== b.value);
    };
  }
  return (input, vars) => {
    const a = singleton(l(input, vars), 'boolean');
    if (skip && a?.value === false) return TRUE;
    const b = singleton(r(input, vars), 'boolean');
    if (b?.value === true || a?.value === false) return TRUE;
    return !a || !b ? [] : FALSE;
  };
}

function stringFn(test: (s: string, arg: string) => boolean, argFn: Fn): Fn {
  return (input, vars) => {
    if (input.length === 0) return [];
    if (input.length !== 1) throw new Error('Expected 1 arguments');
    const value = input[0]!.value;
    if (typeof value !== 'string') throw new TypeError('String function cannot be called with non-string');
    const arg = argFn(input, vars)[0]?.value;
    return bool(test(value, arg as string));
  };
}

function func(atom: FunctionAtom): Fn | undefined {
  if (atom.name === 'is' && atom.args.length === 1) {
    const t = atom.args[0];
    const name = t instanceof SymbolAtom ? t.name : t instanceof DotAtom ? `${(t.left as SymbolAtom).name}.${(t.right as SymbolAtom).name}` : '';
    return (input) => (name ? input.map((v) => ({ type: 'boolean', value: fhirPathIs(v, name) })) : []);
  }
  const args = atom.args.map(compile);
  if (args.some((a) => !a)) return undefined;
  const [a0] = args as Fn[];
  switch (`${atom.name}/${args.length}`) {
    case 'exists/0':
      return (input) => bool(input.length > 0 && input.every((e) => !isEmpty(e.value)));
    case 'exists/1':
      return (input, vars) => bool(input.some((e) => truthy(a0!([e], vars))));
    case 'empty/0':
      return (input) => bool(input.every((e) => isEmpty(e.value)));
    case 'hasValue/0':
      return (input) => bool(input.length !== 0);
    case 'count/0':
      return (input) => [{ type: 'integer', value: input.length }];
    case 'first/0':
      return (input) => input.slice(0, 1);
    case 'not/0':
      return (input) => {
        if (input.length === 0) return []; // toBoolean of nothing is nothing, and so is not() of it
        if (input.length === 1 && typeof input[0]!.value === 'boolean') return bool(!input[0]!.value);
        throw new Bail();
      };
    case 'where/1':
      return (input, vars) => input.filter((e) => truthy(a0!([e], vars)));
    case 'all/1':
      return (input, vars) => bool(input.every((e) => truthy(a0!([e], vars))));
    case 'select/1':
      return (input, vars) => input.flatMap((e) => a0!([e], vars));
    case 'allFalse/0':
      return (input) => bool(input.every((e) => !e.value));
    case 'allTrue/0':
      return (input) => bool(input.every((e) => !!e.value));
    case 'isDistinct/0':
      return (input) => {
        // @medplum/core's distinct compares with ===: for strings, what a Set does
        if (input.every((e) => typeof e.value === 'string')) return bool(new Set(input.map((e) => e.value)).size === input.length);
        const seen: unknown[] = [];
        for (const e of input) if (!seen.some((v) => v === e.value)) seen.push(e.value);
        return bool(seen.length === input.length);
      };
    case 'startsWith/1':
      return stringFn((s, p) => s.startsWith(p), a0!);
    case 'contains/1':
      return stringFn((s, p) => s.includes(p), a0!);
    case 'intersect/1': {
      // @medplum/core evaluates the other collection on the root input: only one that starts from a variable is taken
      if (!startsFromVariable(atom.args[0]!)) return undefined;
      return (input, vars) => {
        const other = a0!([], vars);
        const result: TypedValue[] = [];
        for (const value of input) if (!result.some((e) => e.value === value.value) && other.some((e) => e.value === value.value)) result.push(value);
        return result;
      };
    }
    case 'htmlChecks/0':
    case 'htmlChecks/1':
      return () => TRUE;
    default:
      return undefined;
  }
}

function startsFromVariable(atom: Atom): boolean {
  let a = atom;
  while (a instanceof DotAtom) a = a.left;
  return a instanceof SymbolAtom && a.name.startsWith('%');
}

/** toJsBoolean: the first item's value, truthy. */
function truthy(values: TypedValue[]): boolean {
  return values.length !== 0 && !!values[0]!.value;
}

function symbol(name: string): Fn {
  if (name === '$this') return (input) => input;
  if (name.startsWith('%')) {
    return (_input, vars) => {
      const v = vars[name];
      if (v === undefined) throw new Error(`Undefined variable ${name}`);
      return [v];
    };
  }
  const cache: NavCache = {};
  return (input) => {
    const out: TypedValue[] = [];
    for (let i = 0; i < input.length; i++) navigate(input[i]!, name, out, cache);
    return out;
  };
}

/** Whether an expression's value does not depend on the input: it starts from a variable or a literal. */
function independent(atom: Atom): boolean {
  if (atom instanceof LiteralAtom) return true;
  if (atom instanceof SymbolAtom) return atom.name.startsWith('%');
  if (atom instanceof DotAtom) return independent(atom.left);
  if (atom instanceof FunctionAtom || atom instanceof FhirPathAtom || atom instanceof IsAtom) return false;
  return 'left' in atom && 'right' in atom && independent(atom.left as Atom) && independent(atom.right as Atom);
}

const MEMO = Symbol('memo');

/**
 * A part that does not depend on the input (`%resource.type = 'batch'` inside bdl-3's `entry.all(…)`), computed once
 * per evaluation: kept on that evaluation's variables object, which lives only as long as the evaluation.
 */
function once(fn: Fn): Fn {
  return (input, vars) => {
    const memo = ((vars as { [MEMO]?: Map<Fn, TypedValue[]> })[MEMO] ??= new Map());
    let r = memo.get(fn);
    if (!r) memo.set(fn, (r = fn(input, vars)));
    return r;
  };
}

export function compile(atom: Atom): Fn | undefined {
  const fn = compileAtom(atom);
  return fn && !(atom instanceof LiteralAtom) && independent(atom) && !(atom instanceof SymbolAtom) ? once(fn) : fn;
}

function compileAtom(atom: Atom): Fn | undefined {
  if (atom instanceof FhirPathAtom) {
    const child = compile(atom.child);
    if (!child) return undefined;
    return (input, vars) => {
      if (input.length === 0) return child([], vars);
      if (input.length === 1) return child(input, vars);
      return input.flatMap((e) => child([e], vars));
    };
  }
  if (atom instanceof LiteralAtom) {
    const v = [atom.value];
    return () => v;
  }
  if (atom instanceof SymbolAtom) return symbol(atom.name);
  if (atom instanceof EmptySetAtom) return () => [];
  if (atom instanceof FunctionAtom) return func(atom);
  if (atom instanceof IsAtom && atom.right instanceof SymbolAtom) {
    const l = compile(atom.left);
    const name = atom.right.name;
    return (
      l &&
      ((input, vars) => {
        const left = l(input, vars);
        return left.length !== 1 ? [] : bool(fhirPathIs(left[0]!, name));
      })
    );
  }
  if (atom instanceof ArithemticOperatorAtom) return arithmetic(atom);
  if (!(
    atom instanceof DotAtom ||
    atom instanceof AndAtom ||
    atom instanceof OrAtom ||
    atom instanceof XorAtom ||
    atom instanceof ImpliesAtom ||
    atom instanceof EqualsAtom ||
    atom instanceof NotEqualsAtom ||
    atom instanceof InAtom ||
    atom instanceof UnionAtom ||
    atom instanceof ConcatAtom ||
    atom instanceof ContainsAtom
  )) {
    return undefined;
  }
  const l = compile(atom.left);
  const r = compile(atom.right);
  if (!l || !r) return undefined;
  if (atom instanceof DotAtom) return (input, vars) => r(l(input, vars), vars);
  if (atom instanceof AndAtom || atom instanceof OrAtom || atom instanceof XorAtom || atom instanceof ImpliesAtom) return boolOp(atom, l, r);
  if (atom instanceof EqualsAtom) return (input, vars) => fhirPathArrayEquals(l(input, vars), r(input, vars));
  if (atom instanceof NotEqualsAtom) return (input, vars) => fhirPathArrayNotEquals(l(input, vars), r(input, vars));
  if (atom instanceof UnionAtom) return (input, vars) => removeDuplicates([...l(input, vars), ...r(input, vars)]);
  if (atom instanceof ContainsAtom)
    return (input, vars) => {
      const left = l(input, vars);
      const right = r(input, vars);
      return bool(left.some((e) => e.value === right[0]!.value));
    };
  if (atom instanceof ConcatAtom) {
    return (input, vars) => {
      const result = [...l(input, vars), ...r(input, vars)];
      if (result.length > 0 && result.every((e) => typeof e.value === 'string')) {
        return [{ type: 'string', value: result.map((e) => e.value as string).join('') }];
      }
      return result;
    };
  }
  return (input, vars) => {
    const left = singleton(l(input, vars));
    const right = r(input, vars);
    if (!left) return [];
    return bool(right.some((e) => fhirPathEquals(left, e)[0]!.value));
  };
}

/** @medplum/core's arithmetic and comparison (`+`, `<=`…), its own operation on the two single values. */
function arithmetic(atom: ArithemticOperatorAtom): Fn | undefined {
  const l = compile(atom.left);
  const r = compile(atom.right);
  if (!l || !r) return undefined;
  return (input, vars) => {
    const left = l(input, vars);
    if (left.length !== 1) return [];
    const right = r(input, vars);
    if (right.length !== 1) return [];
    const lv = left[0]!.value;
    const rv = right[0]!.value;
    const result = atom.impl(isQuantity(lv) ? lv.value : lv, isQuantity(rv) ? rv.value : rv);
    if (typeof result === 'boolean') return bool(result);
    if (isQuantity(lv)) return [{ type: 'Quantity', value: { ...lv, value: result } }];
    return [toTypedValue(result)];
  };
}

/**
 * The properties of the context an expression reads (`contained` for dom-2's `contained.contained.empty()`), or
 * undefined when it depends on the context some other way (`$this`, `%resource`, a function of the context itself):
 * when none of them is in a value, the expression's result is the one it has on an empty value of the type.
 */
export function readsOnly(atom: Atom, top: boolean, out: Set<string>): boolean {
  if (atom instanceof FhirPathAtom) return readsOnly(atom.child, top, out);
  if (atom instanceof LiteralAtom || atom instanceof EmptySetAtom) return true;
  if (atom instanceof SymbolAtom) {
    if (atom.name === '%ucum') return true;
    if (atom.name.startsWith('%') || atom.name === '$this') return !top && !['%context', '%resource', '%rootResource'].includes(atom.name);
    if (top && !/^[a-z]/.test(atom.name)) return false; // a type name (`Appointment.status`) is the resource itself
    if (top) out.add(atom.name);
    return true;
  }
  if (atom instanceof DotAtom) return readsOnly(atom.left, top, out) && readsOnly(atom.right, false, out);
  if (atom instanceof FunctionAtom) return !top && atom.args.every((a) => readsOnly(a, false, out));
  if (atom instanceof IsAtom) return readsOnly(atom.left, top, out);
  if ('left' in atom && 'right' in atom) return readsOnly(atom.left as Atom, top, out) && readsOnly(atom.right as Atom, top, out);
  return false;
}
