import { evalFhirPathTyped, type FhirPathAtom, isResourceType, parseFhirPath, toTypedValue, tryGetDataType, type TypedValue } from '@medplum/core';
import type { Resource } from '@medplum/fhirtypes';
import type { FhirIssue } from './validate';

/**
 * The resource-level invariants of resources inside another one. @medplum/core 5.0.10 checks the invariants of
 * the resource it is given (ServiceRequest's prr-1, DomainResource's dom-2…) and those of every element below it,
 * but not the resource-level ones of the resources nested in it: bundle entries, contained resources,
 * Parameters' resources. A bundle with an entry that breaks prr-1 was valid; the same ServiceRequest alone was not.
 * This checks them as @medplum/core checks a root: errors only, the same invariants left out, the first broken one
 * of each resource reported, with the same words.
 */

/** The invariants @medplum/core does not evaluate, on a root either (its own list). */
const NOT_EVALUATED = new Set(['ele-1', 'dom-3', 'org-1', 'sdf-19']);
const UCUM: TypedValue = toTypedValue('http://unitsofmeasure.org');
const parsed = new Map<string, FhirPathAtom>();

function atom(expression: string): FhirPathAtom {
  let a = parsed.get(expression);
  if (!a) parsed.set(expression, (a = parseFhirPath(expression)));
  return a;
}

/** The first resource-level invariant `resource` (at `path` inside `root`) breaks, if any. */
function brokenInvariant(resource: Resource, path: string, root: TypedValue): FhirIssue | undefined {
  const schema = tryGetDataType(resource.resourceType);
  const context: TypedValue = { ...toTypedValue(resource), path } as TypedValue;
  for (const c of schema?.constraints ?? []) {
    if (c.severity !== 'error' || NOT_EVALUATED.has(c.key)) continue;
    try {
      const result = evalFhirPathTyped(atom(c.expression), [context], { '%context': context, '%ucum': UCUM, '%resource': context, '%rootResource': root });
      if (result.length === 1 && result[0]!.value === true) continue;
      return { severity: 'error', code: 'invariant', path, message: `Constraint ${c.key} not met: ${c.description}` };
    } catch (e) {
      return { severity: 'error', code: 'processing', path, message: `Error evaluating invariant expression ${c.key}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  return undefined;
}

/** Issues of the resources nested anywhere in `root` (not of `root` itself), with their paths from the root. */
export function nestedInvariantIssues(root: Resource): FhirIssue[] {
  const issues: FhirIssue[] = [];
  const rootValue = toTypedValue(root);
  // the way down, joined into a path only at a resource
  const keys: (string | number)[] = [];
  const path = () => root.resourceType + keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        keys.push(i);
        visit(value[i]);
        keys.pop();
      }
      return;
    }
    if (!value || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    if (value !== root && typeof object.resourceType === 'string' && isResourceType(object.resourceType)) {
      const issue = brokenInvariant(object as unknown as Resource, path(), rootValue);
      if (issue) issues.push(issue);
    }
    for (const key in object) {
      const v = object[key];
      if (!v || typeof v !== 'object') continue;
      keys.push(key);
      visit(v);
      keys.pop();
    }
  };
  visit(root);
  return issues;
}
