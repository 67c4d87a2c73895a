import { compile } from 'fhirpath';
import r4 from 'fhirpath/fhir-context/r4';
import { LRUCache } from 'lru-cache';

/** A FHIRPath expression compiled once against the R4 model: resource (or any part of one) in, values out. */
export type FhirPathFn = (input: unknown, env?: Record<string, unknown>) => unknown[];

/** An expression that does not parse, with fhirpath.js's reason in words. */
export class FhirPathError extends Error {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super(`FHIRPath "${expression}" does not parse: ${reason}`);
    this.name = 'FhirPathError';
  }
}

// compiled expressions are reused across runs (a node's config is the same for every message)
const compiled = new LRUCache<string, FhirPathFn>({ max: 2_000 });

/**
 * Compiles `expression` (once per process; later calls reuse it) for R4 data, evaluated synchronously
 * (no terminology server: `memberOf` and friends are not available). Throws FhirPathError when it does not parse.
 */
export function fhirPath(expression: string): FhirPathFn {
  const known = compiled.get(expression);
  if (known) return known;
  let fn: (resource: unknown, env?: Record<string, unknown>) => unknown[];
  try {
    fn = compile(expression, r4, { async: false }) as typeof fn;
  } catch (e) {
    throw new FhirPathError(expression, e instanceof Error ? e.message.split('\n')[0]! : String(e));
  }
  const run: FhirPathFn = (input, env) => fn(input, env);
  compiled.set(expression, run);
  return run;
}

/** Tells whether `expression` parses; the reason when it does not (for config validation). */
export function fhirPathProblem(expression: string): string | undefined {
  try {
    fhirPath(expression);
    return undefined;
  } catch (e) {
    return e instanceof FhirPathError ? e.message : String(e);
  }
}
