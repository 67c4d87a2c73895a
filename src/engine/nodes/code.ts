import { z } from 'zod';
import { defineNode } from '../types';
import { MAX_LOG_LINES, runSandboxed } from './code-sandbox';

const Config = z.object({
  source: z
    .string()
    .min(1, 'the code is empty')
    .max(100_000)
    .describe('JavaScript function body: `input` holds the incoming value; `return` the output (JSON)'),
  timeout_ms: z.number().int().min(10).max(10_000).default(1000).describe('CPU time limit of one run'),
  memory_mb: z.number().int().min(1).max(128).default(32).describe('Memory limit of the sandbox, in MB'),
});

export const code = defineNode({
  id: 'code',
  name: 'Code (JavaScript)',
  category: 'data',
  description: 'Runs a short JavaScript function in an isolated sandbox with time and memory limits.',
  version: '1.0.0',
  keywords: ['code', 'javascript', 'js', 'script', 'function', 'custom', 'sandbox'],
  side_effect: 'none',
  documentation: [
    'Runs `source`, the body of a JavaScript function, in a [QuickJS](https://bellard.org/quickjs/)',
    'sandbox (its own WebAssembly instance) created for this run alone. `input` holds the incoming value (a copy, passed as JSON); what',
    'you `return` becomes the output (as JSON: `undefined` becomes `null`, `Date`s become strings).',
    '',
    'The sandbox is plain ECMAScript: there is no `require`, `process`, `fetch`, file system, network,',
    'timers or `await`. `console.log/info/warn/error/debug` lines go to the node’s execution log (at most',
    `${MAX_LOG_LINES} lines).`,
    '',
    '**Ports**',
    '- in `input` (any)',
    '- out `output` (any)',
    '',
    '**Config**',
    '- `source`: the function body.',
    '- `timeout_ms`: 10 to 10000 (default 1000). Past it the code is stopped: `CODE_TIMEOUT`.',
    '- `memory_mb`: 1 to 128 (default 32), a hard cap on the sandbox heap (to within about 1 MB), including',
    '  the copy of the input. Past it: `CODE_MEMORY_LIMIT`.',
    '',
    'The code runs synchronously on the worker, so keep `timeout_ms` short for per-message work.',
    '',
    'An exception thrown by the code (or a syntax error, or very deep recursion) fails the node with',
    '`CODE_FAILED` and the sandbox’s message; line numbers count from the first line of `source`.',
    '',
    '**Example**: age in years of a FHIR Patient:',
    '```js',
    'const born = new Date(input.birthDate);',
    'const age = Math.floor((Date.now() - born.getTime()) / 31557600000);',
    "console.log('patient', input.id, 'age', age);",
    'return { id: input.id, age };',
    '```',
  ].join('\n'),
  config: Config,
  inputs: () => [{ name: 'input', type: 'any', description: 'The value bound to `input`' }],
  outputs: () => [{ name: 'output', type: 'any', description: 'What the code returns' }],
  async execute(ctx, inputs, config) {
    const started = Date.now();
    const output = await runSandboxed(ctx, config.source, inputs.input, config);
    ctx.log('debug', `code ran in ${Date.now() - started} ms`);
    return { outputs: { output } };
  },
});
