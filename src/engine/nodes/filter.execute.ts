import { compileJsonata, evaluateJsonata, jsonataTruthy } from '../lib/jsonata';
import { NodeError } from '../node-error';
import { implementNode } from '../node-type';
import { filter } from './filter';

export const filterNode = implementNode(filter, {
  async execute(ctx, inputs, config) {
    const items = inputs.items;
    if (!Array.isArray(items)) {
      throw new NodeError('NOT_AN_ARRAY', `"items" must be an array, got ${items === null ? 'null' : typeof items}.`);
    }
    const expression = compileJsonata(config.expression);
    const kept: unknown[] = [];
    const rejected: unknown[] = [];
    for (const [index, item] of items.entries()) {
      let result: unknown;
      try {
        result = await evaluateJsonata(expression, item, 'FILTER_FAILED', { index });
      } catch (e) {
        throw new NodeError('FILTER_FAILED', `Item ${index}: ${(e as Error).message}`);
      }
      (jsonataTruthy(result) ? kept : rejected).push(item);
    }
    ctx.log('info', `kept ${kept.length} of ${items.length} item(s), rejected ${rejected.length}`);
    return { outputs: { kept, rejected } };
  },
});
