import { describe, expect, it } from 'vitest';
import { jsonSchemaValidateNode as jsonSchemaValidate } from './json-schema-validate.execute';
import { compileSchema } from '../lib/json-schema';
import { failure, runNode, SYNTHEA_PATIENTS } from '../../../tests/support/engine/node-context';

const patientContract = {
  type: 'object',
  required: ['resourceType', 'id', 'birthDate'],
  properties: {
    resourceType: { const: 'Patient' },
    id: { type: 'string', format: 'uuid' },
    birthDate: { type: 'string', format: 'date' },
    gender: { enum: ['male', 'female', 'other', 'unknown'] },
  },
};

describe('json-schema-validate', () => {
  it('routes a conforming Synthea Patient to valid, unchanged', async () => {
    const r = await runNode(jsonSchemaValidate, { schema: patientContract }, { value: SYNTHEA_PATIENTS[0] });
    expect(r.outputs).toEqual({ valid: SYNTHEA_PATIENTS[0] });
  });

  it('routes a bad value to invalid with every error and its path', async () => {
    const { id: _id, ...noId } = SYNTHEA_PATIENTS[1]!;
    const bad = { ...noId, birthDate: '13/04/1960', gender: 'M' };
    const r = await runNode(jsonSchemaValidate, { schema: patientContract }, { value: bad });
    expect(Object.keys(r.outputs)).toEqual(['invalid']);
    const { value, errors } = r.outputs.invalid as { value: unknown; errors: { path: string; message: string }[] };
    expect(value).toEqual(bad);
    expect(errors).toEqual(
      expect.arrayContaining([
        { path: '/id', message: "must have required property 'id'" },
        { path: '/birthDate', message: 'must match format "date"' },
        { path: '/gender', message: 'must be one of "male", "female", "other", "unknown"' },
      ]),
    );
  });

  it('with on_invalid "fail" stops with SCHEMA_VALIDATION_FAILED listing the errors', async () => {
    const run = runNode(jsonSchemaValidate, { schema: patientContract, on_invalid: 'fail' }, { value: { resourceType: 'Observation' } });
    const error = await failure(run);
    expect(error.code).toBe('SCHEMA_VALIDATION_FAILED');
    expect(error.message).toContain('/resourceType must be "Patient"');
    expect(error.message).toContain("/id must have required property 'id'");
    expect(error.message).toContain("/birthDate must have required property 'birthDate'");
  });

  it('reports additional properties by name', async () => {
    const schema = { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false };
    const r = await runNode(jsonSchemaValidate, { schema }, { value: { id: 'a', ssn: '123-45-6789' } });
    expect((r.outputs.invalid as { errors: unknown[] }).errors).toEqual([{ path: '/ssn', message: "must not have property 'ssn'" }]);
  });

  it('understands draft 2020-12 schemas', async () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } };
    expect((await runNode(jsonSchemaValidate, { schema }, { value: ['a', 1, 2] })).outputs).toHaveProperty('valid');
    expect((await runNode(jsonSchemaValidate, { schema }, { value: ['a', 'b'] })).outputs).toHaveProperty('invalid');
  });

  it('refuses a schema ajv cannot compile when the config is parsed', () => {
    const parsed = jsonSchemaValidate.config.safeParse({ schema: { type: 'strng' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/not a usable JSON Schema/);
    expect(jsonSchemaValidate.config.safeParse({}).success).toBe(false);
    expect(jsonSchemaValidate.config.safeParse({ schema: patientContract, on_invalid: 'drop' }).success).toBe(false);
  });

  it('compiles a schema once and reuses the validator', () => {
    expect(compileSchema({ ...patientContract })).toBe(compileSchema(JSON.parse(JSON.stringify(patientContract))));
  });
});
