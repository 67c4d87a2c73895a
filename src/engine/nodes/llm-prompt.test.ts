import { describe, expect, it } from 'vitest';
import { languageModel } from '@/server/services/executions/node-services';
import { failure, runNode, testContext, testServices } from '../../../tests/support/engine/node-context';
import { llmPromptNode as llmPrompt } from './llm-prompt.execute';

const withModels = () => testContext({ services: testServices({ languageModel }) });

describe('llm-prompt', () => {
  it('works with its default config on the offline model: a labelled answer and its usage, logged', async () => {
    const ctx = withModels();
    const r = await runNode(llmPrompt, {}, { input: 'Patient presents with fever and cough. Started amoxicillin 500 mg po tid.' }, ctx);
    expect(r.outputs.text).toBe('[clinflow/offline: rule-based, no LLM] Patient presents with fever and cough. Started amoxicillin 500 mg po tid.');
    expect(r.outputs.usage).toMatchObject({ model: 'clinflow/offline', output_tokens: 16 });
    expect(ctx.logs[0]!.message).toMatch(/^clinflow\/offline: \d+ input \+ 16 output tokens in \d+ ms$/);
  });

  it('fills {{field.path}} from the input and answers with an object valid against output_schema (its example)', async () => {
    const r = await runNode(llmPrompt, llmPrompt.example, { input: { note: 'Started metformin 500 mg po bid for type 2 diabetes.' } }, withModels());
    expect(r.outputs.object).toEqual({ medications: [{ name: 'metformin', dose: '500 mg', route: 'po', frequency: 'bid' }] });
    expect(Object.keys(r.outputs)).toEqual(['object', 'usage']);
  });

  it('fails with LLM_OUTPUT_INVALID when the answer does not satisfy the schema', async () => {
    const schema = { type: 'object', properties: { medications: { type: 'array', minItems: 1 } }, required: ['medications'] };
    const e = await failure(runNode(llmPrompt, { output_schema: schema }, { input: 'No medications today.' }, withModels()));
    expect(e.code).toBe('LLM_OUTPUT_INVALID');
    expect(e.message).toContain('must NOT have fewer than 1 items');
  });

  it('refuses a model whose provider is not configured, naming the variable to set', async () => {
    const e = await failure(runNode(llmPrompt, { model: 'openai/gpt-4o-mini' }, { input: 'hi' }, withModels()));
    expect(e.code).toBe('MODEL_UNAVAILABLE');
    expect(e.message).toBe('The model openai/gpt-4o-mini is not available: set OPENAI_API_KEY to use openai models (or use clinflow/offline).');
  });
});
