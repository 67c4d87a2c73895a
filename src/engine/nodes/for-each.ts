import { z } from 'zod';
import { PipelineDefinition } from '@/shared/pipeline';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  body: PipelineDefinition.describe(
    [
      'The pipeline run once per item (same shape as a pipeline’s definition): its own',
      'manual-trigger receives {item, index}; its pipeline-output values form that item’s result',
    ].join(' '),
  ),
  concurrency: z.number().int().min(1).max(10).default(1).describe('How many items run at the same time (results keep item order whatever the concurrency)'),
});

export const forEach = describeNode({
  id: 'for-each',
  name: 'For each',
  idBase: 'each',
  category: 'control',
  description: 'Runs a nested pipeline once per item of an array and collects the results in order.',
  version: '1.0.0',
  keywords: ['loop', 'for each', 'iterate', 'map', 'batch', 'array', 'subflow'],
  side_effect: 'none',
  documentation: [
    'Runs `body`, a complete pipeline definition, once for every element of `items`. Inside the body, a',
    '`manual-trigger` receives the inputs `{"item": <element>, "index": <position>}` (declare',
    '`fields: {"item": "json"}` to get the element on its own port), and each `pipeline-output` adds a',
    'value to that item’s result. `results` has one entry per item, in item order, each the body’s outputs object',
    '(`{<output key>: value, …}`). If one item’s body fails, no further items start. Test mode applies',
    'inside the body too.',
    '',
    'The example config gives each Patient of a list a display name:',
    '`results: [{"display": "Sumiko254 Medhurst46"}, …]`.',
  ].join('\n'),
  config: Config,
  example: {
    concurrency: 4,
    body: {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { item: 'json' } } },
        { id: 'name', type: 'jsonata-transform', config: { expression: 'name[0].given[0] & " " & name[0].family' } },
        { id: 'out', type: 'pipeline-output', config: { key: 'display' } },
      ],
      connections: [
        { source: 'in', source_port: 'item', target: 'name', target_port: 'input' },
        { source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
      ],
    },
  },
  ui: { fields: { body: { widget: 'json' } } },
  ports: () => ({
    inputs: [{ name: 'items', type: 'json', description: 'The array to iterate over' }],
    outputs: [{ name: 'results', type: 'json', description: 'The body outputs of each item, in item order' }],
  }),
  errors: {
    NOT_AN_ARRAY: '`items` is not an array',
    FOR_EACH_ITEM_FAILED: 'an item’s body failed (the message names the item index and the body’s error)',
  },
  subgraphs: (config) => [{ field: 'body', definition: config.body, triggers: ['manual-trigger'] }],
});
