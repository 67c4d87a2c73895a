import { z } from 'zod';
import { PipelineDefinition } from '@/shared/pipeline';
import { defineNode, NodeError } from '../types';

const Config = z.object({
  body: PipelineDefinition.meta({
    description: 'The pipeline run once per item: its own manual-trigger receives {item, index}; its pipeline-output values form that item’s result',
    'x-editor': 'json',
  }),
  concurrency: z.number().int().min(1).max(10).default(1).describe('How many items run at the same time'),
});

export const forEach = defineNode({
  id: 'for-each',
  name: 'For each',
  category: 'control',
  description: 'Runs a nested pipeline once per item of an array and collects the results in order.',
  version: '1.0.0',
  keywords: ['loop', 'for each', 'iterate', 'map', 'batch', 'array', 'subflow'],
  side_effect: 'none',
  documentation: [
    'Runs `body`, a complete pipeline definition, once for every element of `items`. Inside the body, a',
    '`manual-trigger` receives the inputs `{"item": <element>, "index": <position>}` (declare',
    '`fields: {"item": "json"}` to get the element on its own port), and each `pipeline-output` adds a',
    'value to that item’s result.',
    '',
    '**Ports**',
    '- in `items` (json): must be an array, otherwise the node fails with `NOT_AN_ARRAY`',
    '- out `results` (json): one entry per item, in item order, each the body’s outputs object',
    '  (`{<output key>: value, …}`)',
    '',
    '**Config**',
    '- `body`: the nested definition (same shape as a pipeline’s, with its own trigger).',
    '- `concurrency`: 1 to 10 items at a time (default 1, one after another). Results keep item order',
    '  whatever the concurrency.',
    '',
    'If one item’s body fails, no further items start and the node fails with `FOR_EACH_ITEM_FAILED`,',
    'naming the item index. Test mode applies inside the body too.',
    '',
    '**Example**: give each Patient of a list a display name:',
    '```json',
    '{"concurrency": 4, "body": {',
    '  "nodes": [',
    '    {"id": "in", "type": "manual-trigger", "config": {"fields": {"item": "json"}}},',
    '    {"id": "name", "type": "jsonata-transform", "config": {"expression": "name[0].given[0] & \\" \\" & name[0].family"}},',
    '    {"id": "out", "type": "pipeline-output", "config": {"key": "display"}}',
    '  ],',
    '  "connections": [',
    '    {"source": "in", "source_port": "item", "target": "name", "target_port": "input"},',
    '    {"source": "name", "source_port": "output", "target": "out", "target_port": "value"}',
    '  ]',
    '}}',
    '```',
    'gives `results: [{"display": "Sumiko254 Medhurst46"}, …]`.',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'items', type: 'json', description: 'The array to iterate over' }],
  outputs: () => [{ name: 'results', type: 'json', description: 'The body outputs of each item, in item order' }],
  subgraphs: (config) => [{ field: 'body', definition: config.body, triggers: ['manual-trigger'] }],
  async execute(ctx, inputs, config) {
    const items = inputs.items;
    if (!Array.isArray(items)) {
      const got = items === null ? 'null' : typeof items;
      throw new NodeError('NOT_AN_ARRAY', `"items" must be an array, got ${got}.`);
    }
    const results: unknown[] = new Array(items.length);
    let next = 0;
    let failure: NodeError | undefined;
    const worker = async () => {
      while (!failure && next < items.length) {
        if (ctx.signal.aborted) {
          failure = new NodeError('CANCELLED', `Stopped after ${next} of ${items.length} items: the execution was cancelled.`);
          return;
        }
        const index = next++;
        try {
          results[index] = await ctx.runSubgraph(config.body, { item: items[index], index });
        } catch (e) {
          failure ??= new NodeError('FOR_EACH_ITEM_FAILED', `Item ${index} failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    };
    const workers = Math.min(config.concurrency, items.length);
    await Promise.all(Array.from({ length: workers }, worker));
    if (failure) throw failure;
    ctx.log('info', `ran ${items.length} item(s), ${workers} at a time`);
    return { outputs: { results } };
  },
});
