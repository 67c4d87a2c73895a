import { compileSchema, toIssue } from '../lib/json-schema';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { jsonSchemaValidate } from './json-schema-validate';

export const jsonSchemaValidateNode = implementNode(jsonSchemaValidate, {
  async execute(ctx, inputs, config) {
    const validate = compileSchema(config.schema);
    if (validate(inputs.value)) return { outputs: { valid: inputs.value } };
    const errors = (validate.errors ?? []).map(toIssue);
    ctx.log('info', `invalid: ${errors.length} error(s)`);
    if (config.on_invalid === 'fail') {
      const list = errors
        .slice(0, 20)
        .map((e) => `${e.path} ${e.message}`)
        .join('; ');
      const more = errors.length > 20 ? ` (and ${errors.length - 20} more)` : '';
      throw new NodeError('SCHEMA_VALIDATION_FAILED', `The value does not match the schema: ${list}${more}`);
    }
    return { outputs: { invalid: { value: inputs.value, errors } } };
  },
});
