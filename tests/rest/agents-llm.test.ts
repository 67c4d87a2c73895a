import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoTool, postRaw, readEvents } from '../support/agents';
import { client, expectError, type Client } from '../support/client';
import { startOpenAiServer } from '../support/openai-server';
import { startServer, tempDir, type RunningServer } from '../support/server';

const ORG = { id: 'agents-llm-org', key: 'cfk_agents_llm_test_key_0123456789' };

/*
 * A server whose agents talk to an OpenAI-compatible chat completions endpoint (tests/support/openai-server.ts,
 * as Ollama or vLLM would), through the AI SDK's provider over real HTTP.
 */
describe('an agent on an OpenAI-compatible model, over HTTP', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiServer>>;
  let server: RunningServer;
  let api: Client;
  beforeAll(async () => {
    llm = await startOpenAiServer();
    server = await startServer({
      DATA_DIR: tempDir('agents-llm'),
      BOOTSTRAP_ORG_ID: ORG.id,
      BOOTSTRAP_API_KEY: ORG.key,
      OPENAI_COMPATIBLE_BASE_URL: llm.url,
      OPENAI_COMPATIBLE_API_KEY: 'local-llm-key',
      OPENAI_COMPATIBLE_MODELS: 'llama3.1:8b:131072',
      OPENAI_COMPATIBLE_NAME: 'ollama',
    });
    api = client(server.url, ORG);
  });
  afterAll(async () => {
    await server?.stop();
    await llm?.close();
  });

  it('offers the tool, streams its call and result, then the answer the model wrote from it', async () => {
    const models = await api.get('/api/llm-models');
    expect(models.body.models).toContainEqual(expect.objectContaining({ id: 'ollama/llama3.1:8b', available: true, context_window: 131072 }));
    const { toolId } = await echoTool(api, 'patient_lookup', 'patient_id', 'Looks a patient up by id');
    const created = await api.post('/api/agents', {
      name: 'Local model agent',
      model_config: { model: 'ollama/llama3.1:8b' },
      instructions: 'Use the tools.',
      tools: [toolId],
    });
    expect(created.status, created.text).toBe(201);

    const res = await postRaw(server.url, ORG, `/api/agents/${created.body.id}/chat`, { message: 'Who is patient 12345?', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { events } = await readEvents(res.body!);
    const names = events.map((e) => e.event);
    expect(names.slice(0, 2)).toEqual(['tool_call', 'tool_result']);
    expect(events[0]!.data).toEqual({ tool: 'patient_lookup', params: { patient_id: '12345' } });
    expect(events[1]!.data.result).toMatchObject({ status: 'completed', outputs: { patient_id: '12345' } });
    expect(names.slice(2, -1).every((n) => n === 'message')).toBe(true);
    expect(names.at(-1)).toBe('done');
    const answer = events
      .filter((e) => e.event === 'message')
      .map((e) => e.data.content)
      .join('');
    expect(answer).toMatch(/^The result is .*12345/);

    // what the model server saw: the tool offered, then the tool's result sent back
    expect(llm.seen).toHaveLength(2);
    const [first, second] = llm.seen;
    expect(first!.authorization).toBe('Bearer local-llm-key');
    expect(first!.body).toMatchObject({ model: 'llama3.1:8b', stream: true });
    expect(first!.body.tools!.map((t) => t.function.name)).toEqual(['patient_lookup']);
    expect(first!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Who is patient 12345?' });
    const toolMessage = second!.body.messages.at(-1)!;
    expect(toolMessage.role).toBe('tool');
    expect(String(toolMessage.content)).toContain('12345');
    expect(second!.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);

    const saved = await api.get(`/api/agents/${created.body.id}/conversations/${res.headers.get('x-conversation-id')}/messages`);
    expect(saved.body.messages[1]).toMatchObject({
      role: 'assistant',
      status: 'complete',
      content: answer,
      model: 'ollama/llama3.1:8b',
      usage: { input_tokens: 24 },
    });
  });

  it('ends the stream with an error event when the model server is gone, and saves the turn as failed', async () => {
    const agent = (await api.post('/api/agents', { name: 'Orphan agent', model_config: { model: 'ollama/llama3.1:8b' } })).body.id as string;
    await llm.close();
    const res = await postRaw(server.url, ORG, `/api/agents/${agent}/chat`, { message: 'Hello?', stream: true });
    expect(res.status).toBe(200);
    const { events } = await readEvents(res.body!);
    expect(events.map((e) => e.event)).toEqual(['error']);
    expect(events[0]!.data).toEqual({ error: { code: 'LLM_FAILED', status: 500, message: expect.stringMatching(/^The language model call failed/) } });
    const saved = await api.get(`/api/agents/${agent}/conversations/${res.headers.get('x-conversation-id')}/messages`);
    expect(saved.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(saved.body.messages[1]).toMatchObject({ status: 'failed', error: { code: 'LLM_FAILED' } });

    const whole = await api.post(`/api/agents/${agent}/chat`, { message: 'Hello?' });
    expectError(whole, 500, 'LLM_FAILED');
  });
});
