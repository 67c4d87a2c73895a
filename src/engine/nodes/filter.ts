import { z } from 'zod';
import { jsonataField } from '../lib/jsonata';
import { describeNode } from '../node-descriptor';
import { pass } from '../node-plan';

const Config = z.object({
  expression: jsonataField('JSONata predicate evaluated per item ($ is the item, $index its position); truthy keeps it'),
});

export const filter = describeNode({
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
    'The example config keeps active Conditions only. Other predicates: `gender = "female" and birthDate < "1970-01-01"`, `$exists(deceasedDateTime) = false`.',
  ].join('\n'),
  config: Config,
  example: { expression: 'clinicalStatus.coding[0].code = "active"' },
  ui: { fields: { expression: { widget: 'expression' } } },
  plan: {
    suits: (f) => Boolean(f.list),
    role: 'step',
    stage: 'work',
    input: 'items',
    output: 'kept',
    aside: 'rejected',
    router: 'keep',
    jobs: ['route'],
    search: false,
    takes: (f) => Boolean(f.list),
    gives: pass,
    answers: {
      'keep-matching': { when: (a) => a.data === 'csv' || a.data === 'fhir' || a.itemsFromSource || a.fhir, why: 'keeps the items that match' },
      test: {
        when: (a) => a.data === 'csv' || a.itemsFromSource || /\b(rows|records|entries|items)\b/.test(a.near),
        why: 'a test on each row keeps the rows that pass',
      },
    },
    configure: (a) => {
      const p = a.predicate(true);
      a.config.expression = p.expression;
      a.filled.push(`keep: ${p.said}`);
      if (p.guessed) a.missing.push(`expression: ${p.said}`);
    },
    asideKey: () => 'rejected',
  },
  ports: () => ({
    inputs: [{ name: 'items', type: 'json', description: 'The array to filter' }],
    outputs: [
      { name: 'kept', type: 'json', description: 'Items the predicate accepts' },
      { name: 'rejected', type: 'json', description: 'Items the predicate refuses' },
    ],
  }),
  errors: {
    NOT_AN_ARRAY: '`items` is not an array',
    FILTER_FAILED: 'the predicate failed on an item (the message names its index)',
    INVALID_EXPRESSION: 'the expression does not compile',
  },
});
