import { z } from 'zod';
import { defineNode } from '../types';
import { compileJsonata, evaluateJsonata, jsonataField, jsonataTruthy } from './jsonata-expr';

const Config = z.object({
  expression: jsonataField('JSONata expression evaluated against the input value; its truthiness picks the branch'),
});

export const condition = defineNode({
  id: 'condition',
  name: 'Condition (if/else)',
  category: 'control',
  description: 'Routes a value to the `true` or `false` branch by a JSONata expression.',
  version: '1.0.0',
  keywords: ['if', 'else', 'branch', 'route', 'condition', 'jsonata', 'filter'],
  side_effect: 'none',
  documentation: [
    'Evaluates `expression` ([JSONata](https://docs.jsonata.org)) against the incoming `value` and sends the',
    'value, unchanged, out of **`true`** or **`false`**. Only one branch fires; every node after the other',
    'branch is marked `skipped`.',
    '',
    '**Ports**',
    '- in `value` (any)',
    '- out `true` (any), `false` (any): the input value',
    '',
    '**Config**',
    '- `expression`: JSONata. Truthiness follows JSONata’s `$boolean()`: `false`, `0`, `""`, `null`, an',
    '  empty array or object, and a path that matches nothing are false; everything else is true.',
    '',
    '**Example**: route deceased patients to a separate branch:',
    '```json',
    '{"expression": "$exists(deceasedDateTime) or deceasedBoolean = true"}',
    '```',
    'Other examples: `resourceType = "Patient" and gender = "female"`,',
    '`clinicalStatus.coding[0].code = "active"`, `$count(entry) > 0`.',
    '',
    'A failing expression (e.g. `$sum("x")`) fails the node with `CONDITION_FAILED`.',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'value', type: 'any', description: 'The value to test and route' }],
  outputs: () => [
    { name: 'true', type: 'any', description: 'The input value, when the expression is truthy' },
    { name: 'false', type: 'any', description: 'The input value, when the expression is falsy' },
  ],
  async execute(ctx, inputs, config) {
    const result = await evaluateJsonata(compileJsonata(config.expression), inputs.value, 'CONDITION_FAILED');
    const branch = jsonataTruthy(result) ? 'true' : 'false';
    ctx.log('debug', `expression gave ${JSON.stringify(result) ?? 'nothing'}: taking "${branch}"`);
    return { outputs: { [branch]: inputs.value } };
  },
});
