import { z } from 'zod';
import { defineNode } from '../types';
import { compileJsonata, evaluateJsonata, jsonataField, toPlainJson } from './jsonata-expr';

const Config = z.object({
  expression: jsonataField('JSONata expression evaluated against the input; its result is the output'),
});

export const jsonataTransform = defineNode({
  id: 'jsonata-transform',
  name: 'JSONata transform',
  category: 'data',
  description: 'Reshapes JSON with a JSONata expression: map, select, compute, aggregate.',
  version: '1.0.0',
  keywords: ['jsonata', 'transform', 'map', 'mapping', 'reshape', 'expression', 'json', 'query'],
  side_effect: 'none',
  documentation: [
    'Evaluates a [JSONata](https://docs.jsonata.org) `expression` with the incoming value as `$` and sends',
    'the result on. Use it to pick fields out of FHIR resources, flatten bundles, rename keys or compute',
    'values. The expression is compiled when the pipeline is saved or validated, so syntax errors show up',
    'before anything runs.',
    '',
    '**Ports**',
    '- in `input` (any)',
    '- out `output` (json): the result as plain JSON; an expression that matches nothing gives `null`',
    '',
    '**Config**',
    '- `expression`: JSONata. One evaluation may take 5 s and nest 3000 levels deep (enough for recursive',
    '  functions a few hundred calls deep); past that it fails instead of hanging the worker.',
    '',
    '**Errors**',
    '- `INVALID_EXPRESSION`: the expression does not compile (message and position from JSONata).',
    '- `TRANSFORM_FAILED`: it failed on this input (e.g. a type error, `$sum(["a"])`).',
    '',
    '**Example**: a FHIR Patient to a flat row:',
    '```json',
    '{"expression": "{\\"id\\": id, \\"family\\": name[0].family, \\"given\\": name[0].given[0], \\"born\\": birthDate, \\"zip\\": address[0].postalCode}"}',
    '```',
    'Over a Bundle: `entry.resource[resourceType = "Condition"].code.coding[0].display`.',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'input', type: 'any', description: 'The value to transform ($ in the expression)' }],
  outputs: () => [{ name: 'output', type: 'json', description: 'The result of the expression' }],
  async execute(_ctx, inputs, config) {
    const expression = compileJsonata(config.expression);
    const result = await evaluateJsonata(expression, inputs.input, 'TRANSFORM_FAILED');
    return { outputs: { output: toPlainJson(result, 'TRANSFORM_FAILED') } };
  },
});
