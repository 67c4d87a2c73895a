import { isStepCount, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOpenAiServer } from '../../../tests/support/openai-server';
import { getLanguageModel, listLanguageModels } from './models';

const none = { OPENAI_COMPATIBLE_MODELS: [] as string[], OPENAI_COMPATIBLE_NAME: 'openai-compatible' };
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return { code: (e as { code?: string }).code, status: (e as { status?: number }).status, message: (e as Error).message };
  }
  throw new Error('expected a refusal');
};

describe('getLanguageModel', () => {
  it('always gives the offline model; refuses unconfigured and unknown models with a 400 naming the variable', () => {
    expect(getLanguageModel('clinflow/offline', none).modelId).toBe('offline');
    expect(code(() => getLanguageModel('openai/gpt-4o-mini', none))).toEqual({
      code: 'MODEL_UNAVAILABLE',
      status: 400,
      message: 'The model openai/gpt-4o-mini is not available: set OPENAI_API_KEY to use openai models (or use clinflow/offline).',
    });
    expect(code(() => getLanguageModel('anthropic/claude-sonnet-4-0', none)).message).toContain('set ANTHROPIC_API_KEY');
    expect(code(() => getLanguageModel('ollama/llama3.1', { OPENAI_COMPATIBLE_MODELS: ['llama3.1'], OPENAI_COMPATIBLE_NAME: 'ollama' })).message).toContain(
      'set OPENAI_COMPATIBLE_BASE_URL',
    );
    const unknown = code(() => getLanguageModel('gpt-5', none));
    expect(unknown).toMatchObject({ code: 'MODEL_NOT_FOUND', status: 400 });
    expect(unknown.message).toContain('OPENAI_COMPATIBLE_MODELS');
  });

  it('lists models as available once their provider is configured', () => {
    const listed = listLanguageModels({
      ...none,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_COMPATIBLE_MODELS: ['llama3.1:8b:131072', 'qwen2.5'],
      OPENAI_COMPATIBLE_NAME: 'ollama',
    });
    const avail = Object.fromEntries(listed.map((m) => [m.id, m.available]));
    expect(avail).toMatchObject({
      'clinflow/offline': true,
      'openai/gpt-4o-mini': true,
      'anthropic/claude-sonnet-4-0': false,
      'ollama/llama3.1:8b': true,
      'ollama/qwen2.5': true,
    });
    expect(listed.find((m) => m.id === 'ollama/llama3.1:8b')!.context_window).toBe(131072);
  });
});

describe('an OpenAI-compatible endpoint over real HTTP', () => {
  let server: Awaited<ReturnType<typeof startOpenAiServer>>;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(() => server.close());

  it('streams text deltas and completes a tool-call round trip', async () => {
    const e = {
      OPENAI_COMPATIBLE_BASE_URL: server.url,
      OPENAI_COMPATIBLE_API_KEY: 'local-key',
      OPENAI_COMPATIBLE_MODELS: ['llama3.1:8b:131072'],
      OPENAI_COMPATIBLE_NAME: 'ollama',
    };
    const model = getLanguageModel('ollama/llama3.1:8b', e);
    const deltas: string[] = [];
    const plain = streamText({ model, prompt: 'Say hello' });
    for await (const d of plain.textStream) deltas.push(d);
    expect(deltas).toEqual(['Hello ', 'from ', 'the ', 'local ', 'model.']);
    expect((await plain.usage).inputTokens).toBe(12);

    const calls: unknown[] = [];
    const r = streamText({
      model,
      prompt: 'Latest labs of patient 12345?',
      tools: {
        get_lab_results: tool({
          description: 'Latest labs',
          inputSchema: z.object({ patient_id: z.string() }),
          execute: async (input) => (calls.push(input), 'potassium 4.1 mmol/L'),
        }),
      },
      stopWhen: isStepCount(3),
    });
    expect(await r.text).toBe('The result is potassium 4.1 mmol/L.');
    expect(calls).toEqual([{ patient_id: '12345' }]);
    expect(server.seen.map((s) => [s.body.model, s.body.stream, s.authorization])).toEqual([
      ['llama3.1:8b', true, 'Bearer local-key'],
      ['llama3.1:8b', true, 'Bearer local-key'],
      ['llama3.1:8b', true, 'Bearer local-key'],
    ]);
    expect(server.seen[2]!.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});
