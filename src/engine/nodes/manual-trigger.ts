import { z } from 'zod';
import { PORT_TYPES } from '@/shared/ports';
import { defineNode, NodeError } from '../types';

const Config = z.object({
  fields: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'field names are identifiers'), z.enum(PORT_TYPES))
    .default({})
    .describe('Named inputs, each becoming an output port of that type carrying inputs[name]'),
});

export const manualTrigger = defineNode({
  id: 'manual-trigger',
  name: 'Manual trigger',
  category: 'control',
  description: 'Starts a pipeline with the inputs of an execution request (API, editor, retry).',
  version: '1.0.0',
  keywords: ['start', 'input', 'trigger', 'api', 'manual'],
  side_effect: 'none',
  trigger: true,
  documentation: [
    'Starts the pipeline with the `inputs` object of `POST /api/execute`.',
    '',
    '- `event` carries the whole `inputs` object.',
    '- Each entry of `fields` (name → port type, e.g. `{"message": "text"}`) adds an output port of that',
    '  type carrying `inputs[name]`; a missing field fails the execution with a clear error.',
  ].join('\n'),
  config: Config,
  inputs: () => [],
  outputs: (config) => [
    { name: 'event', type: 'trigger-event', description: 'The whole inputs object' },
    ...Object.entries(config.fields).map(([name, type]) => ({ name, type, description: `inputs.${name}` })),
  ],
  async execute(ctx, _inputs, config) {
    const outputs: Record<string, unknown> = { event: ctx.executionInputs };
    for (const name of Object.keys(config.fields)) {
      if (ctx.executionInputs[name] === undefined) {
        throw new NodeError('INPUT_MISSING', `The execution inputs have no "${name}" (declared in the trigger's fields).`);
      }
      outputs[name] = ctx.executionInputs[name];
    }
    return { outputs };
  },
});
