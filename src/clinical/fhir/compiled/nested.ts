import { isResourceType, toTypedValue, tryGetDataType, type TypedValue } from '@medplum/core';
import type { FhirIssue } from '../validate';
import type { Vars } from './fhirpath';
import { evaluate, type Invariant, invariantOf, known } from './invariants';

/**
 * The compiled form of resource-invariants.ts (what @medplum/core's check leaves out: the resource-level invariants
 * of the resources nested in the value, and org-1 everywhere), with the same rules and words: errors only, the first
 * broken one of each resource, evaluated with that file's variables.
 */

const NOT_EVALUATED = new Set(['ele-1', 'dom-3', 'sdf-19']);
const UCUM: TypedValue = toTypedValue('http://unitsofmeasure.org');
const byType = new Map<string, { all: Invariant[]; root: Invariant[]; descriptions: Map<Invariant, string> }>();

function invariantsOf(type: string) {
  let found = byType.get(type);
  if (!found) {
    const descriptions = new Map<Invariant, string>();
    const all: Invariant[] = [];
    for (const c of tryGetDataType(type)?.constraints ?? []) {
      if (c.severity !== 'error' || NOT_EVALUATED.has(c.key)) continue;
      const inv = invariantOf(c.key, c.expression);
      const own = { ...inv, key: c.key };
      descriptions.set(own, c.description);
      all.push(own);
    }
    found = { all, root: all.filter((i) => i.key === 'org-1'), descriptions };
    byType.set(type, found);
  }
  return found;
}

/**
 * The first invariant the resource at `where` breaks (`rootOnly`: the root's, where only org-1 is checked); `where` is
 * its path, or what makes it (built only for an issue).
 */
export function brokenNested(resource: Record<string, unknown>, where: string | (() => string), root: TypedValue, rootOnly: boolean): FhirIssue | undefined {
  const set = invariantsOf(resource.resourceType as string);
  const list = rootOnly ? set.root : set.all;
  if (list.length === 0) return undefined;
  const type = resource.resourceType as string;
  let context: TypedValue | undefined;
  let vars: Vars | undefined;
  for (const inv of list) {
    try {
      const ok = known(inv, resource, type);
      if (ok === true) continue;
      if (ok === undefined) {
        context ??= { type, value: resource };
        vars ??= { '%context': context, '%ucum': UCUM, '%resource': context, '%rootResource': root };
        if (evaluate(inv, context, vars)) continue;
      }
      return { severity: 'error', code: 'invariant', path: pathIn(where), message: `Constraint ${inv.key} not met: ${set.descriptions.get(inv)}` };
    } catch (e) {
      const message = `Error evaluating invariant expression ${inv.key}: ${e instanceof Error ? e.message : String(e)}`;
      return { severity: 'error', code: 'processing', path: pathIn(where), message };
    }
  }
  return undefined;
}

const pathIn = (where: string | (() => string)) => (typeof where === 'string' ? where : where());

/** Whether resource-invariants.ts takes this object for a resource. */
export function isNestedResource(value: unknown): value is Record<string, unknown> {
  const type = (value as { resourceType?: unknown }).resourceType;
  return typeof type === 'string' && isResourceType(type);
}

/**
 * Every resource inside `value` (at `path`, which is not the root), as resource-invariants.ts walks: every key, every
 * array item; for the parts of a value the compiled walk does not go through (unknown properties and the like).
 */
export function scanNested(value: unknown, path: string, root: TypedValue, out: FhirIssue[]): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) scanNested(value[i], `${path}[${i}]`, root, out);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  if (isNestedResource(object)) {
    const issue = brokenNested(object, path, root, false);
    if (issue) out.push(issue);
  }
  for (const key in object) {
    const v = object[key];
    if (v && typeof v === 'object') scanNested(v, `${path}.${key}`, root, out);
  }
}

/** All of resource-invariants.ts's findings on a root value: its org-1, and every nested resource's invariants. */
export function nestedIssues(root: Record<string, unknown>, rootValue: TypedValue): FhirIssue[] {
  const out: FhirIssue[] = [];
  const type = String(root.resourceType);
  if (isNestedResource(root)) {
    const issue = brokenNested(root, type, rootValue, true);
    if (issue) out.push(issue);
  }
  for (const key in root) {
    const v = root[key];
    if (v && typeof v === 'object') scanNested(v, `${type}.${key}`, rootValue, out);
  }
  return out;
}
