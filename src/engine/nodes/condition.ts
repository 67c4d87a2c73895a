import { z } from 'zod';
import { jsonataField } from '../lib/jsonata';
import { describeNode } from '../node-descriptor';
import { pass } from '../node-plan';

const Config = z.object({
  expression: jsonataField('JSONata expression evaluated against the input value; its truthiness picks the branch'),
});

export const condition = describeNode({
  id: 'condition',
  name: 'Condition (if/else)',
  idBase: 'check',
  category: 'control',
  description: 'Routes a value to the `true` or `false` branch by a JSONata expression.',
  version: '1.0.0',
  keywords: ['if', 'else', 'branch', 'route', 'condition', 'jsonata', 'filter'],
  side_effect: 'none',
  documentation: [
    'Evaluates `expression` ([JSONata](https://docs.jsonata.org)) against the incoming `value` and sends the',
    'value, unchanged, out of **`true`** or **`false`**. Only one branch fires; every node after the other',
    'branch is marked `skipped`. Truthiness follows JSONata’s `$boolean()`: `false`, `0`, `""`, `null`, an',
    'empty array or object, and a path that matches nothing are false; everything else is true.',
    '',
    'The example config routes deceased patients to a separate branch. Other expressions: `resourceType = "Patient" and gender = "female"`,',
    '`clinicalStatus.coding[0].code = "active"`, `$count(entry) > 0`.',
  ].join('\n'),
  config: Config,
  example: { expression: '$exists(deceasedDateTime) or deceasedBoolean = true' },
  ui: { fields: { expression: { widget: 'expression' } } },
  plan: {
    suits: (f) => !f.list,
    role: 'step',
    stage: 'work',
    input: 'value',
    output: 'true',
    aside: 'false',
    router: 'branch',
    jobs: ['route'],
    search: false,
    gives: pass,
    answers: {
      'keep-matching': { when: () => true, why: 'a single value is kept or sent aside', fallback: true },
      test: { when: () => true, why: 'a test sends the value one way or the other', fallback: true },
    },
    // another router does the test; "…if it is valid": the validator routes that already
    dropWhen: ({ lower, step, others }) =>
      others.some((o) => o.plan.router) ||
      (/\bvalid\b|\binvalid\b/.test(lower.slice(step.at, step.at + 40)) && others.some((o) => o.plan.jobs?.includes('validate'))),
    configure: (a) => {
      const p = a.predicate(false);
      a.config.expression = p.expression;
      a.filled.push(`test: ${p.said}`);
      if (p.guessed) a.missing.push(`expression: ${p.said}`);
    },
    asideKey: (lower) => (/\babnormal|\bcritical|\burgent/.test(lower) ? 'normal' : 'otherwise'),
  },
  ports: () => ({
    inputs: [{ name: 'value', type: 'any', description: 'The value to test and route' }],
    outputs: [
      { name: 'true', type: 'any', description: 'The input value, when the expression is truthy' },
      { name: 'false', type: 'any', description: 'The input value, when the expression is falsy' },
    ],
  }),
  errors: {
    CONDITION_FAILED: 'the expression failed on this value (e.g. `$sum("x")`)',
    INVALID_EXPRESSION: 'the expression does not compile',
  },
});
