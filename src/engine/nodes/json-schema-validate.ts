import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { defineNode, NodeError } from '../types';

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

function toIssue(e: ErrorObject): { path: string; message: string } {
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValue?: unknown; allowedValues?: unknown[] };
  const extra = params.missingProperty ?? params.additionalProperty;
  const path = `${e.instancePath}${extra !== undefined ? `/${extra}` : ''}` || '/';
  let message = e.message ?? e.keyword;
  if (e.keyword === 'additionalProperties') message = `must not have property '${extra}'`;
  if (e.keyword === 'const') message = `must be ${JSON.stringify(params.allowedValue)}`;
  if (e.keyword === 'enum') message = `must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
  return { path, message };
}

const Config = z.object({
  schema: z
    .record(z.string(), z.unknown())
    .superRefine((schema, ctx) => {
      try {
        compileSchema(schema);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `not a usable JSON Schema: ${(e as Error).message}` });
      }
    })
    .describe('The JSON Schema values must satisfy (draft-07 unless $schema names 2019-09 or 2020-12)'),
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send invalid values out of "invalid"; fail: stop the execution with the errors'),
});

export const jsonSchemaValidate = defineNode({
  id: 'json-schema-validate',
  name: 'JSON Schema validate',
  category: 'data',
  description: 'Checks a JSON value against a JSON Schema and routes it to valid or invalid.',
  version: '1.0.0',
  keywords: ['validate', 'validation', 'json schema', 'schema', 'ajv', 'contract', 'quality', 'quarantine'],
  side_effect: 'none',
  documentation: [
    'Validates the incoming value against `schema` (JSON Schema; draft-07 by default, 2019-09 or 2020-12',
    'when `$schema` says so; formats such as `date`, `date-time`, `email`, `uri`, `uuid` are checked).',
    'Every violation is reported, not just the first.',
    '',
    '**Ports**',
    '- in `value` (json)',
    '- out `valid` (json): the value, when it conforms',
    '- out `invalid` (json): `{"value": …, "errors": [{"path": "/birthDate", "message": "must match format \\"date\\""}]}`',
    '',
    '**Config**',
    '- `schema`: the JSON Schema (checked when the pipeline is saved; unknown keywords are ignored).',
    '- `on_invalid`: `route` (default) sends bad values to `invalid` so you can quarantine them; `fail`',
    '  stops the execution with `SCHEMA_VALIDATION_FAILED` and the list of errors.',
    '',
    '**Example**: minimal Patient contract:',
    '```json',
    '{"schema": {"type": "object", "required": ["resourceType", "id", "birthDate"],',
    '  "properties": {"resourceType": {"const": "Patient"}, "birthDate": {"type": "string", "format": "date"},',
    '  "gender": {"enum": ["male", "female", "other", "unknown"]}}}, "on_invalid": "route"}',
    '```',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'value', type: 'json', description: 'The value to validate' }],
  outputs: () => [
    { name: 'valid', type: 'json', description: 'The value, when it conforms' },
    { name: 'invalid', type: 'json', description: '{value, errors: [{path, message}]} when it does not' },
  ],
  async execute(ctx, inputs, config) {
    const validate = compileSchema(config.schema);
    if (validate(inputs.value)) return { outputs: { valid: inputs.value } };
    const errors = (validate.errors ?? []).map(toIssue);
    ctx.log('info', `invalid: ${errors.length} error(s)`);
    if (config.on_invalid === 'fail') {
      const list = errors.slice(0, 20).map((e) => `${e.path} ${e.message}`).join('; ');
      const more = errors.length > 20 ? ` (and ${errors.length - 20} more)` : '';
      throw new NodeError('SCHEMA_VALIDATION_FAILED', `The value does not match the schema: ${list}${more}`);
    }
    return { outputs: { invalid: { value: inputs.value, errors } } };
  },
});
