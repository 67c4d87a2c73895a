import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  key: z.string().min(1).max(100).optional().describe('Name of this value in the execution outputs (default: the node id)'),
});

export const pipelineOutput = describeNode({
  id: 'pipeline-output',
  name: 'Pipeline output',
  idBase: 'out',
  category: 'output',
  description: "Sets a value of the execution's outputs, returned by synchronous executions.",
  version: '1.0.0',
  keywords: ['output', 'result', 'return', 'response'],
  side_effect: 'none',
  output: true,
  documentation: [
    'Whatever reaches `value` becomes `outputs[key]` of the execution (key defaults to the node id).',
    'A pipeline may have several outputs; a skipped branch sets nothing.',
  ].join('\n'),
  config: Config,
  example: { key: 'bundle' },
  plan: {
    role: 'output',
    stage: 'output',
    input: 'value',
    search: false,
    takesRaw: true,
  },
  ports: () => ({ inputs: [{ name: 'value', type: 'any', description: 'The value to return' }], outputs: [] }),
  errors: {},
});
