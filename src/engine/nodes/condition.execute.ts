import { compileJsonata, evaluateJsonata, jsonataTruthy } from '../lib/jsonata';
import { implementNode } from '../node-type';
import { condition } from './condition';

export const conditionNode = implementNode(condition, {
  async execute(ctx, inputs, config) {
    const result = await evaluateJsonata(compileJsonata(config.expression), inputs.value, 'CONDITION_FAILED');
    const branch = jsonataTruthy(result) ? 'true' : 'false';
    ctx.log('debug', `expression gave ${JSON.stringify(result) ?? 'nothing'}: taking "${branch}"`);
    return { outputs: { [branch]: inputs.value } };
  },
});
