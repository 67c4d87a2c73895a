import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { LRUCache } from 'lru-cache';

/** Compiled validators by schema text; bounded so an endless stream of distinct schemas cannot grow memory. */
const cache = new LRUCache<string, ValidateFunction>({ max: 200 });

/** Compiles a JSON Schema (draft-07 by default; 2019-09 and 2020-12 when `$schema` says so). Throws on a bad schema. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const options = { allErrors: true, strict: false, logger: false as const };
  const ajv = dialect.includes('2020-12') ? new Ajv2020(options) : dialect.includes('2019-09') ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  const validate = ajv.compile(schema);
  cache.set(key, validate);
  return validate;
}

export function toIssue(e: ErrorObject): { path: string; message: string } {
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValue?: unknown; allowedValues?: unknown[] };
  const extra = params.missingProperty ?? params.additionalProperty;
  const path = `${e.instancePath}${extra !== undefined ? `/${extra}` : ''}` || '/';
  let message = e.message ?? e.keyword;
  if (e.keyword === 'additionalProperties') message = `must not have property '${extra}'`;
  if (e.keyword === 'const') message = `must be ${JSON.stringify(params.allowedValue)}`;
  if (e.keyword === 'enum') message = `must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
  return { path, message };
}
