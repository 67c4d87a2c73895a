import { z } from 'zod';
import { describeNode } from '../node-descriptor';

/** Console lines kept per run; a chatty loop cannot flood the execution log. */
export const MAX_LOG_LINES = 500;

const Config = z.object({
  source: z
    .string()
    .min(1, 'the code is empty')
    .max(100_000)
    .describe('JavaScript function body: `input` holds the incoming value; `return` the output (JSON)'),
  timeout_ms: z.number().int().min(10).max(10_000).default(1000).describe('CPU time limit of one run'),
  memory_mb: z.number().int().min(1).max(128).default(32).describe('Memory limit of the sandbox, in MB'),
});

export const code = describeNode({
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
    'The code runs synchronously on the worker, so keep `timeout_ms` short for per-message work. The memory',
    'cap holds to within about 1 MB and includes the copy of the input. Line numbers in errors count from',
    'the first line of `source`.',
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
  example: { source: 'const born = new Date(input.birthDate);\nreturn { id: input.id, born: born.getUTCFullYear() };', timeout_ms: 1000 },
  ui: { fields: { source: { widget: 'code' } } },
  plan: {
    role: 'step',
    stage: 'work',
    input: 'input',
    output: 'output',
    search: false,
    gives: (f) => ({ type: 'json', kind: f.kind, list: f.list }),
    cue: /\bjavascript\b|\bcustom code\b|\bjs code\b|\bscript\b/,
    takesRaw: true,
    runs: { language: 'javascript', field: 'source' },
    configure: (a) => {
      if (!a.config.source) {
        a.config.source = 'return input;';
        a.missing.push('source: write the code (it returns its input as it is)');
      }
    },
  },
  ports: () => ({
    inputs: [{ name: 'input', type: 'any', description: 'The value bound to `input`' }],
    outputs: [{ name: 'output', type: 'any', description: 'What the code returns' }],
  }),
  errors: {
    CODE_FAILED: 'the code threw, has a syntax error, recursed too deep, or returned something that is not JSON',
    CODE_TIMEOUT: 'the code ran past `timeout_ms` and was stopped',
    CODE_MEMORY_LIMIT: 'the sandbox heap went past `memory_mb`',
  },
});
