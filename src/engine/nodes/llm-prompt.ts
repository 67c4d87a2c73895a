import { z } from 'zod';
import { describeNode } from '../node-descriptor';
import { anyOf } from '../node-plan';

const Config = z.object({
  model: z
    .string()
    .min(1)
    .default('clinflow/offline')
    .describe(
      'Language model id (GET /api/llm-models): clinflow/offline (rule-based, no LLM, always available), ' +
        'openai/gpt-4o-mini, anthropic/…, or an OpenAI-compatible one',
    ),
  instructions: z.string().max(20_000).default('').describe('System instructions'),
  prompt: z
    .string()
    .min(1)
    .max(100_000)
    .default('{{input}}')
    .describe('The prompt; {{input}} is the whole input (text, or JSON), {{field.path}} a field of it'),
  temperature: z.number().min(0).max(2).optional().describe('Sampling temperature (the provider default when empty)'),
  max_tokens: z.number().int().min(1).max(200_000).default(1024).describe('The most tokens the answer may have'),
  output_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('A JSON Schema (type object): the model answers with an object that is validated against it, sent out of "object" instead of "text"'),
});

export const llmPrompt = describeNode({
  id: 'llm-prompt',
  name: 'LLM prompt',
  idBase: 'llm',
  category: 'ai',
  description: 'Sends a prompt built from the input to a language model and outputs its answer as text, or as an object validated against a JSON Schema.',
  version: '1.0.0',
  keywords: ['llm', 'ai', 'prompt', 'language model', 'gpt', 'claude', 'openai', 'anthropic', 'ollama', 'structured output', 'json schema', 'generate'],
  side_effect: 'read',
  documentation: [
    'Fills the `prompt` template from the input — `{{input}}` is the whole input (a string as is, anything else as',
    'JSON), `{{patient.name}}` a field by dotted path (`{{items.0.code}}` for array items) — and sends it with the',
    'system `instructions` to the language model `model`. Without `output_schema` the answer leaves by `text`; with',
    'one, the model is asked for a JSON object, which is checked against the schema and leaves by `object`.',
    '`usage` gives the tokens used: `{input_tokens, output_tokens, total_tokens, model, latency_ms}` (also logged).',
    '',
    'The default model, `clinflow/offline`, is a rule-based model, not an LLM: it summarises by picking the most',
    'informative sentences, extracts medications, conditions, observations, dates and codes, and fills a schema',
    'from them. Its free-text answers start with `[clinflow/offline: rule-based, no LLM]`. Other models need their',
    'provider in env (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_BASE_URL).',
    '',
    '**Example**: with the example config and the input `{"note": "Started metformin 500 mg po bid for type 2',
    'diabetes."}`, `object` is `{"medications": [{"name": "metformin", "dose": "500 mg", "route": "po", "frequency":',
    '"bid"}]}` on the offline model.',
  ].join('\n'),
  config: Config,
  example: {
    model: 'clinflow/offline',
    instructions: 'Extract the medications from the clinical note.',
    prompt: '{{note}}',
    max_tokens: 1024,
    output_schema: {
      type: 'object',
      properties: {
        medications: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, dose: { type: 'string' }, route: { type: 'string' }, frequency: { type: 'string' } },
            required: ['name', 'dose', 'route', 'frequency'],
            additionalProperties: false,
          },
        },
      },
      required: ['medications'],
      additionalProperties: false,
    },
  },
  ui: {
    order: ['model', 'instructions', 'prompt', 'temperature', 'max_tokens', 'output_schema'],
    fields: { instructions: { widget: 'textarea' }, prompt: { widget: 'textarea' }, output_schema: { widget: 'json' } },
  },
  plan: {
    edit: { cue: /\bllm\b|\bprompt\b|\bclassif\w*|\blanguage model\b/ },
    role: 'step',
    stage: 'model',
    input: 'input',
    output: 'text',
    jobs: ['ai'],
    search: false,
    verdict: true,
    gives: () => ({ type: 'text', kind: 'answer' }),
    cue: anyOf(
      /\bclassif\w*|\bcategori[sz]\w*|\bprompt\b|\btranslat\w*|\bexplain\w*|\bdraft\w*/,
      /\bgenerat\w* (a |an )?(letter|message|explanation|reply)|\bask\w* (the |a |an )?(model|llm)|\bsentiment\b/,
    ),
    answers: { ai: { when: (a) => !a.doing('ai'), why: 'a language model' } },
    // an agent that drafts or explains is the model step; a prompt node beside it only when one is named
    dropWhen: ({ step, others }) =>
      others.some((o) => o.plan.jobs?.includes('ai') && o.plan.verdict) && !/\bprompt|\bllm\b|\bmodel\b|\bgpt\b|\bclaude\b/.test(step.said),
    takesRaw: true,
    configure: (a) => {
      const asks = /\b(classif|categori|prompt|translat|explain|draft|generat|ask|llm|model|gpt|claude|ai)\w*/i;
      const clause = a.text.split(/(?<=[.;])\s+/).find((s) => asks.test(s));
      a.config.instructions = (clause ?? a.text).trim().slice(0, 500);
      a.filled.push('instructions from the request');
    },
  },
  ports: (config) => ({
    inputs: [{ name: 'input', type: 'any', description: 'What the prompt template reads ({{input}}, {{field.path}})' }],
    outputs: [
      config.output_schema
        ? { name: 'object', type: 'json', description: 'The answer, an object valid against output_schema' }
        : { name: 'text', type: 'text', description: 'The answer' },
      { name: 'usage', type: 'json', description: '{model, input_tokens, output_tokens, total_tokens, latency_ms}' },
    ],
  }),
  portsNote: '`object` replaces `text` when `output_schema` is set.',
  errors: {
    MODEL_UNAVAILABLE: 'the model is unknown or its provider is not configured (the message names the env variable to set)',
    LLM_FAILED: 'the provider refused or failed the call (the message says why)',
    LLM_OUTPUT_INVALID: 'the answer is not a JSON object valid against output_schema',
  },
});
