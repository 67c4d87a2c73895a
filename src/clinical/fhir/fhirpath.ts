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

/**
 * Tells whether `expression` parses; the reason when it does not (for config validation). A dry run on an
 * empty object also catches what fhirpath.js only finds when evaluating: an unknown function
 * (`birthDate.foo()`) or one that needs a terminology server (`memberOf`), where the run reaches it.
 */
export function fhirPathProblem(expression: string): string | undefined {
  let fn: FhirPathFn;
  try {
    fn = fhirPath(expression);
  } catch (e) {
    return e instanceof FhirPathError ? e.message : String(e);
  }
  try {
    fn({});
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    const unknown = /^Not implemented: (.+)$/.exec(reason);
    if (unknown) return `FHIRPath "${expression}" cannot run: there is no function ${unknown[1]}()`;
    const remote = /asynchronous function "([^"]+)"/.exec(reason);
    if (remote)
      return [
        `FHIRPath "${expression}" cannot run: ${remote[1]}() needs a server (asynchronous`,
        `functions such as resolve() and memberOf() are not available here)`,
      ].join(' ');
  }
  return undefined;
}

/** `first`: each name gets its expression's first value (null when none); `all`: every value, as a list. */
export type ExtractMode = 'first' | 'all';

/**
 * Evaluates named expressions on one input (a resource, a bundle, or a part of one): `{birthDate:
 * 'Patient.birthDate', mrn: "identifier.where(type.coding.code = 'MR').value"}` → `{birthDate: '1927-05-21',
 * mrn: '129c…'}`. Throws FhirPathError when an expression does not parse; a run-time error (a function
 * given the wrong kind of value) is thrown with the expression's name.
 */
export function extractValues(input: unknown, expressions: Readonly<Record<string, string>>, mode: ExtractMode = 'first'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, expression] of Object.entries(expressions)) {
    let values: unknown[];
    try {
      values = fhirPath(expression)(input);
    } catch (e) {
      if (e instanceof FhirPathError) throw e;
      throw new Error(`FHIRPath "${name}" (${expression}) failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    out[name] = mode === 'first' ? (values[0] ?? null) : values;
  }
  return out;
}
