import { z } from 'zod';
import { jsonataField } from '../lib/jsonata';
import { describeNode } from '../node-descriptor';
import { anyOf, pass } from '../node-plan';

const Case = z.object({
  port: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'port names are identifiers (letters, digits, "_")')
    .max(64)
    .describe('Name of the output port this case fires'),
  expression: jsonataField('JSONata expression evaluated against the input; truthy means the case matches'),
});

const Config = z.object({
  cases: z
    .array(Case)
    .min(1)
    .max(20)
    .superRefine((cases, ctx) => {
      const seen = new Set<string>();
      cases.forEach((c, i) => {
        if (c.port === 'default') ctx.addIssue({ code: 'custom', path: [i, 'port'], message: '"default" is reserved for the no-match port' });
        else if (seen.has(c.port)) ctx.addIssue({ code: 'custom', path: [i, 'port'], message: `duplicate port name "${c.port}"` });
        seen.add(c.port);
      });
    })
    .describe('Cases in order; each adds an output port'),
  mode: z.enum(['first', 'all']).default('first').describe('first: only the first matching case fires; all: every matching case fires'),
});

export const switchDescriptor = describeNode({
  id: 'switch',
  name: 'Switch',
  idBase: 'route',
  category: 'control',
  description: 'Routes a value to one of several named branches by JSONata cases, with a default.',
  version: '1.0.0',
  keywords: ['switch', 'case', 'route', 'branch', 'router', 'jsonata', 'message type'],
  side_effect: 'none',
  documentation: [
    'Tests `cases` in order against the incoming `value`. Each case has a `port` name and a JSONata',
    '`expression`; a truthy result (JSONata `$boolean()` rules) is a match. With `mode: "first"` the value',
    'goes out of the first matching port only; with `mode: "all"` out of every matching port. When no case',
    'matches, it goes out of **`default`**. Ports that do not fire leave their branch `skipped`. Port names',
    'are identifiers, unique, and not `default`.',
  ].join('\n'),
  config: Config,
  example: {
    cases: [
      { port: 'patients', expression: 'resourceType = "Patient"' },
      { port: 'conditions', expression: 'resourceType = "Condition"' },
    ],
    mode: 'first',
  },
  plan: {
    role: 'step',
    stage: 'work',
    input: 'value',
    router: 'branch',
    jobs: ['route'],
    search: false,
    gives: pass,
    cue: anyOf(
      /\bswitch\b|\bseparate (outputs|branches|queues|routes)\b|\beach (message |resource )?type to its own\b/,
      /\bby (message|resource|event) type\b|\bper (message|resource) type\b/,
      /\bdepending on (the )?(message|resource|event) type\b/,
    ),
    branches: { of: (c) => (c.cases as { port: string }[]).map((k) => k.port), aside: 'default' },
    configure: (a) => {
      const cases = a.switchCases();
      a.config.cases = cases;
      a.filled.push(`cases ${cases.map((c) => c.port).join(', ')}`);
    },
    asideKey: () => 'other',
  },
  ports: (config) => ({
    inputs: [{ name: 'value', type: 'any', description: 'The value to route' }],
    outputs: [
      ...config.cases.map((c) => ({ name: c.port, type: 'any' as const, description: `When ${c.expression}` })),
      { name: 'default', type: 'any', description: 'When no case matches' },
    ],
  }),
  portsNote: 'One output per case, named by its `port`, then `default`.',
  errors: {
    SWITCH_FAILED: 'a case expression failed at run time',
    INVALID_EXPRESSION: 'a case expression does not compile',
  },
});
