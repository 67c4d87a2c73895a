import { z } from 'zod';
import { describeNode } from '../node-descriptor';

const Config = z.object({
  agent_id: z.string().default('').describe('The agent to run (its id; Agents page). It must be deployed, except in test runs'),
});

export const agent = describeNode({
  id: 'agent',
  name: 'Agent',
  category: 'ai',
  description: 'Runs a deployed agent of this organization on the input: its model, instructions, prompt template and tools.',
  version: '1.0.0',
  keywords: ['agent', 'llm', 'ai', 'assistant', 'tools', 'chat', 'invoke', 'reasoning'],
  side_effect: 'read',
  documentation: [
    'Runs one turn of the agent `agent_id`, as `POST /api/v1/agents/{id}/invoke` does: the input is its',
    '`input_data` (a string becomes `{"text": …}`); its `message`, `input` or `text` field (or its only string',
    "field) is the message the prompt template's `{{input}}` gets, and every field is a `{{field}}` of it. The",
    'turn is saved as a conversation of the agent (source `pipeline`), with its thinking and tool calls.',
    '',
    'Only a deployed agent runs in a real execution. In test mode an active agent runs too, against its model,',
    'and its tools write nothing: `run_pipeline` and pipeline tools run in test mode, HTTP tools other than GET',
    'describe the request instead of sending it.',
    '',
    '**Example**: with the agent copied from the "Clinical summarizer" template and deployed, the input',
    '`{"text": "Admitted with chest pain. Started aspirin 81 mg po daily."}` gives `output` the summary,',
    '`steps` its thinking and tool calls, `usage` the tokens and latency.',
  ].join('\n'),
  config: Config,
  example: { agent_id: '00000000-0000-4000-8000-000000000000' },
  ui: { order: ['agent_id'], fields: { agent_id: { title: 'Agent', widget: 'agent' } } },
  plan: {
    edit: { cue: /\bagent\b/, names: /\bagent\b/ },
    role: 'step',
    stage: 'model',
    input: 'input',
    output: 'output',
    jobs: ['ai'],
    verdict: true,
    gives: () => ({ type: 'text', kind: 'answer' }),
    cue: /\bagents?\b|\bassistant\b/,
    takesRaw: true,
    configure: (a) => {
      a.missing.push('agent_id: choose the agent to run (Agents page); a test run needs an active one, a real run a deployed one');
    },
    externalModel: true,
  },
  ports: () => ({
    inputs: [{ name: 'input', type: 'any', description: "The agent's input_data: an object, or a text" }],
    outputs: [
      { name: 'output', type: 'text', description: "The agent's answer" },
      { name: 'steps', type: 'json', description: 'Its reasoning steps: thinking, and tool calls with their results' },
      { name: 'usage', type: 'json', description: '{model, input_tokens, output_tokens, total_tokens, latency_ms, conversation_id}' },
    ],
  }),
  errors: {
    AGENT_REQUIRED: '`agent_id` is empty',
    AGENT_NOT_FOUND: 'no agent with that id in this organization',
    AGENT_NOT_DEPLOYED: 'the agent is not deployed (a real execution needs it deployed)',
    AGENT_INACTIVE: 'the agent is inactive',
    MODEL_UNAVAILABLE: "the agent's model is unknown or its provider is not configured",
    LLM_FAILED: 'the provider refused or failed the call (the message says why)',
  },
});
