import { z } from 'zod';
import { defineNode } from '../types';

const Config = z.object({
  key: z.string().min(1).max(100).optional().describe('Name of this value in the execution outputs (default: the node id)'),
});

export const pipelineOutput = defineNode({
  id: 'pipeline-output',
  name: 'Pipeline output',
  category: 'output',
  description: "Sets a value of the execution's outputs, returned by synchronous executions.",
  version: '1.0.0',
  keywords: ['output', 'result', 'return', 'response'],
  side_effect: 'none',
  documentation: [
    'Whatever reaches `value` becomes `outputs[key]` of the execution (key defaults to the node id).',
    'A pipeline may have several outputs; a skipped branch sets nothing.',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'value', type: 'any' }],
  outputs: () => [],
  async execute(ctx, inputs, config) {
    return { outputs: {}, emit: { key: config.key ?? ctx.nodeId, value: inputs.value } };
  },
});
