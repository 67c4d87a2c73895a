import { compileJsonata, evaluateJsonata, toPlainJson } from '../lib/jsonata';
import { implementNode } from '../node-type';
import { jsonataTransform } from './jsonata-transform';

export const jsonataTransformNode = implementNode(jsonataTransform, {
  async execute(_ctx, inputs, config) {
    const expression = compileJsonata(config.expression);
    const result = await evaluateJsonata(expression, inputs.input, 'TRANSFORM_FAILED');
    return { outputs: { output: toPlainJson(result, 'TRANSFORM_FAILED') } };
  },
});
