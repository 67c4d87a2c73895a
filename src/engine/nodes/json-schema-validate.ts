import { z } from 'zod';
import { compileSchema } from '../lib/json-schema';
import { describeNode } from '../node-descriptor';
import { pass } from '../node-plan';

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
    .describe(
      [
        'The JSON Schema values must satisfy (draft-07 unless $schema names 2019-09 or',
        '2020-12; checked when the pipeline is saved; unknown keywords are ignored)',
      ].join(' '),
    ),
  on_invalid: z
    .enum(['route', 'fail'])
    .default('route')
    .describe('route: send invalid values out of "invalid" to quarantine them; fail: stop the execution with the errors'),
});

export const jsonSchemaValidate = describeNode({
  id: 'json-schema-validate',
  name: 'JSON Schema validate',
  idBase: 'check_schema',
  category: 'data',
  description: 'Checks a JSON value against a JSON Schema and routes it to valid or invalid.',
  version: '1.0.0',
  keywords: ['validate', 'validation', 'json schema', 'schema', 'ajv', 'contract', 'quality', 'quarantine'],
  side_effect: 'none',
  documentation: [
    'Validates the incoming value against `schema` (JSON Schema; draft-07 by default, 2019-09 or 2020-12',
    'when `$schema` says so; formats such as `date`, `date-time`, `email`, `uri`, `uuid` are checked).',
    'Every violation is reported, not just the first: `invalid` carries',
    '`{"value": …, "errors": [{"path": "/birthDate", "message": "must match format \\"date\\""}]}`.',
  ].join('\n'),
  config: Config,
  example: {
    schema: {
      type: 'object',
      required: ['resourceType', 'id', 'birthDate'],
      properties: {
        resourceType: { const: 'Patient' },
        birthDate: { type: 'string', format: 'date' },
        gender: { enum: ['male', 'female', 'other', 'unknown'] },
      },
    },
    on_invalid: 'route',
  },
  ui: { fields: { schema: { widget: 'json' } } },
  plan: {
    suits: (f) => f.kind === 'csv' || f.kind === 'json',
    edit: { cue: /\bschema\b|\b(has|have) (an? )?\w+ and (an? )?\w+\b|\brequired fields?\b/, names: /\bschema\b/ },
    role: 'step',
    stage: 'check',
    input: 'value',
    output: 'valid',
    aside: 'invalid',
    jobs: ['validate'],
    search: false,
    takes: (f) => f.kind !== 'note' && f.type !== 'text',
    gives: pass,
    cue: /\bjson schema\b|\bagainst (a|the|our) schema\b/,
    answers: { validate: { when: (a) => !a.fhir && (a.data === 'csv' || a.data === 'json'), why: 'rows are checked against a JSON Schema' } },
    configure: (a) => {
      const required = a.fields.map((f) => f.replace(/\s+/g, '_'));
      const item = { type: 'object', ...(required.length ? { required } : {}) };
      a.config.schema = a.flow.list ? { type: 'array', items: item } : item;
      a.filled.push(required.length ? `schema requiring ${required.join(', ')}` : 'schema: an object');
      if (!required.length) a.missing.push('schema: the request names no required fields; the schema only checks the value is an object');
    },
  },
  ports: () => ({
    inputs: [{ name: 'value', type: 'json', description: 'The value to validate' }],
    outputs: [
      { name: 'valid', type: 'json', description: 'The value, when it conforms' },
      { name: 'invalid', type: 'json', description: '{value, errors: [{path, message}]} when it does not' },
    ],
  }),
  errors: { SCHEMA_VALIDATION_FAILED: 'the value does not match and `on_invalid` is `fail` (the message lists the errors)' },
});
