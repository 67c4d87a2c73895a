import type { TypedValue } from '@medplum/core';
import type { FhirIssue } from '../validate';
import { type At, path } from './paths';

/** What the compiled validator's walk (walk.ts) gathers as it goes. */
export interface State {
  issues: FhirIssue[];
  codes: FhirIssue[];
  nested: FhirIssue[];
  bindings: boolean;
  resources: TypedValue[];
  root: TypedValue;
}

/** A structure issue at `at` (a position, or a path already joined). */
export function structure(s: State, at: At | string, message: string): void {
  s.issues.push({ severity: 'error', code: 'structure', path: typeof at === 'string' ? at : path(at), message });
}
