import { z } from 'zod';
import { describeNode, type PortSpec } from '../node-descriptor';

const Config = z.object({
  inputs: z.number().int().min(2).max(10).default(2).describe('Number of input ports (in1 … inN)'),
  mode: z.enum(['object', 'array']).default('object').describe('object: {in1: value, …} of the inputs that arrived; array: those values in port order'),
});

export const portNames = (count: number) => Array.from({ length: count }, (_, i) => `in${i + 1}`);

export const merge = describeNode({
  id: 'merge',
  name: 'Merge',
  category: 'control',
  description: 'Joins branches: waits for every connected input, then combines the values that arrived.',
  version: '1.0.0',
  keywords: ['merge', 'join', 'combine', 'gather', 'wait', 'branches'],
  side_effect: 'none',
  documentation: [
    'Brings branches back together. The node waits until every node connected to it has finished or',
    'been skipped, then combines the values that arrived. All inputs are optional, so a branch not taken',
    '(for example the `false` side of a Condition) simply leaves its port out; the node is skipped only',
    'when nothing arrives at all. In `object` mode the output is `{"in1": …, "in3": …}` with the inputs',
    'that arrived; in `array` mode those values as a list in port order.',
    '',
    '**Example**: after a Condition, `in1` ← `true` branch and `in2` ← `false` branch; with',
    '`{"mode": "array"}` the output is a one-element array holding whichever branch ran.',
  ].join('\n'),
  config: Config,
  example: { inputs: 2, mode: 'array' },
  ports: (config) => ({
    inputs: portNames(config.inputs).map((name): PortSpec => ({ name, type: 'any', optional: true, description: `Input ${name}` })),
    outputs: [{ name: 'merged', type: 'json', description: 'The arrived inputs, as an object or an array' }],
  }),
  portsNote: 'Inputs `in1` … `inN`, N = `inputs`.',
  errors: {},
});
