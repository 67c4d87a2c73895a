import { evalFhirPathTyped, type FhirPathAtom, isResourceType, parseFhirPath, toTypedValue, tryGetDataType, type TypedValue } from '@medplum/core';
import type { Resource } from '@medplum/fhirtypes';
import type { FhirIssue } from './validate';

/**
 * The resource-level invariants @medplum/core 5.0.10 leaves out. It checks the invariants of the resource it is
 * given (ServiceRequest's prr-1, DomainResource's dom-2…) and those of every element below it, but not the
 * resource-level ones of the resources nested in it: bundle entries, contained resources, Parameters' resources. A
 * bundle with an entry that breaks prr-1 was valid; the same ServiceRequest alone was not. And it skips org-1 (an
 * Organization needs a name or an identifier) everywhere. This checks them as @medplum/core checks a root: errors
 * only, the first broken one of each resource reported, with the same words.
 */

/**
 * Left out here too: ele-1 (medplum's own checks of empty values cover it), dom-3 (a contained resource is referred
 * to; a descendants() walk per resource) and sdf-19 (StructureDefinitions), as @medplum/core leaves them out.
 */
const NOT_EVALUATED = new Set(['ele-1', 'dom-3', 'sdf-19']);
/** What @medplum/core skips on the root as well, and is checked here. */
const ROOT_ONLY = new Set(['org-1']);
const UCUM: TypedValue = toTypedValue('http://unitsofmeasure.org');
const parsed = new Map<string, FhirPathAtom>();

function atom(expression: string): FhirPathAtom {
  let a = parsed.get(expression);
  if (!a) parsed.set(expression, (a = parseFhirPath(expression)));
  return a;
}

/** The first resource-level invariant `resource` (at `path` inside `root`) breaks, if any; `only`, of these. */
function brokenInvariant(resource: Resource, path: string, root: TypedValue, only?: Set<string>): FhirIssue | undefined {
  const schema = tryGetDataType(resource.resourceType);
  const context: TypedValue = { ...toTypedValue(resource), path } as TypedValue;
  for (const c of schema?.constraints ?? []) {
    if (c.severity !== 'error' || NOT_EVALUATED.has(c.key) || (only && !only.has(c.key))) continue;
    try {
      const result = evalFhirPathTyped(atom(c.expression), [context], { '%context': context, '%ucum': UCUM, '%resource': context, '%rootResource': root });
      if (result.length === 1 && result[0]!.value === true) continue;
      return { severity: 'error', code: 'invariant', path, message: `Constraint ${c.key} not met: ${c.description}` };
    } catch (e) {
      return {
        severity: 'error',
        code: 'processing',
        path,
        message: `Error evaluating invariant expression ${c.key}: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
  }
  return undefined;
}

/** What @medplum/core's check of `root` misses: the root's org-1, every nested resource's invariants, by path. */
export function invariantIssues(root: Resource): FhirIssue[] {
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
    if (typeof object.resourceType === 'string' && isResourceType(object.resourceType)) {
      // the walk holds plain JSON objects; the invariant checker reads them as the resource they are
      const issue = brokenInvariant(object as unknown as Resource, path(), rootValue, value === root ? ROOT_ONLY : undefined);
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
