import { z } from 'zod';
import { defineNode, NodeError } from '../types';
import { compileJsonata, evaluateJsonata, jsonataField, jsonataTruthy } from './jsonata-expr';

const Config = z.object({
  expression: jsonataField('JSONata predicate evaluated per item ($ is the item, $index its position); truthy keeps it'),
});

export const filter = defineNode({
  id: 'filter',
  name: 'Filter',
  category: 'data',
  description: 'Splits an array into the items that match a JSONata predicate and those that do not.',
  version: '1.0.0',
  keywords: ['filter', 'where', 'select', 'split', 'partition', 'jsonata', 'array'],
  side_effect: 'none',
  documentation: [
    'Evaluates a [JSONata](https://docs.jsonata.org) predicate on every element of `items`, with the element',
    'as `$` and its position as `$index`. Items with a truthy result (JSONata `$boolean()` rules) go to',
    '**`kept`**, the others to **`rejected`**; both keep the original order, and both ports always fire',
    '(possibly with an empty array), so you can log or quarantine what was dropped.',
    '',
    '**Ports**',
    '- in `items` (json): an array, otherwise the node fails with `NOT_AN_ARRAY`',
    '- out `kept` (json), `rejected` (json): arrays',
    '',
    '**Config**',
    '- `expression`: JSONata predicate. A predicate that fails on an item fails the node with',
    '  `FILTER_FAILED`, naming the item index.',
    '',
    '**Example**: keep active Conditions only:',
    '```json',
    '{"expression": "clinicalStatus.coding[0].code = \\"active\\""}',
    '```',
    'Others: `gender = "female" and birthDate < "1970-01-01"`, `$exists(deceasedDateTime) = false`.',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'items', type: 'json', description: 'The array to filter' }],
  outputs: () => [
    { name: 'kept', type: 'json', description: 'Items the predicate accepts' },
    { name: 'rejected', type: 'json', description: 'Items the predicate refuses' },
  ],
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
