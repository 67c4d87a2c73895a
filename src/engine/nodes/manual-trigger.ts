import { z } from 'zod';
import { PORT_TYPES } from '@/shared/ports';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  fields: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'field names are identifiers'), z.enum(PORT_TYPES))
    .default({})
    .describe('Named inputs (name → port type, e.g. {"message": "text"}), each an output port of that type carrying inputs[name]'),
});

export const manualTrigger = describeNode({
  id: 'manual-trigger',
  name: 'Manual trigger',
  idBase: 'start',
  category: 'control',
  description: 'Starts a pipeline with the inputs of an execution request (API, editor, retry).',
  version: '1.0.0',
  keywords: ['start', 'input', 'trigger', 'api', 'manual'],
  side_effect: 'none',
  trigger: {
    events: [],
    toInputs: (event) => (event.kind === 'manual' ? event.inputs : {}),
    sampleInputs: (config) => Object.fromEntries(Object.entries(config.fields).map(([name, type]) => [name, type === 'text' ? '' : {}])),
  },
  documentation: [
    'Starts the pipeline with the `inputs` object of `POST /api/execute`.',
    '',
    '`event` carries the whole `inputs` object. Each entry of `fields` adds an output port of that type',
    'carrying `inputs[name]`, so an HL7 v2 feed is `{"fields": {"message": "text"}}` → `hl7v2-parse`.',
    'A missing field fails the execution with a clear error.',
  ].join('\n'),
  config: Config,
  example: { fields: { message: 'text' } },
  plan: {
    role: 'trigger',
    stage: 'trigger',
    search: false,
  },
  ports: (config) => ({
    inputs: [],
    outputs: [
      { name: 'event', type: 'trigger-event', description: 'The whole inputs object' },
      ...Object.entries(config.fields).map(([name, type]) => ({ name, type, description: `inputs.${name}` })),
    ],
  }),
  portsNote: 'One more output per entry of `fields`, named and typed by it.',
  errors: { INPUT_MISSING: 'the execution inputs lack a field declared in `fields`' },
});
