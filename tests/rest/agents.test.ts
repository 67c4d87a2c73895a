import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { eventText, newKey, postRaw, readEvents, templateId, waitFor } from '../support/agents';
import { client, expectError, expectRateHeaders, type ApiResponse, type Client } from '../support/client';

const HL7 = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
const ASK = `Please run hl7v2_parse on this message and tell me what is wrong with it:\n${HL7}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

const headersOnly = (res: Response) => ({ headers: res.headers }) as ApiResponse;

describe.each(inject('targets'))('agent chat over REST on $name', (target) => {
  let org: Awaited<ReturnType<typeof orgWithKey>>;
  let api: Client;
  let agentId: string;
  const chatPath = () => `/api/agents/${agentId}/chat`;
  const messagesOf = (cid: string) => api.get(`/api/agents/${agentId}/conversations/${cid}/messages`);

  beforeAll(async () => {
    org = await orgWithKey(target.url, `agents-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
    const created = await api.post('/api/agents', { template_id: await templateId(api, 'HL7 troubleshooter') });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'HL7 troubleshooter', status: 'active', is_template: false, tools: ['hl7v2_parse'] });
    agentId = created.body.id;
  });

  it('streams thinking, the tool call and its result, the answer and done, as they happen; the turn is saved', async () => {
    const res = await postRaw(target.url, org, chatPath(), { message: ASK, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const cid = res.headers.get('x-conversation-id');
    expect(cid).toMatch(UUID);
    expectRateHeaders(headersOnly(res));
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');

    const { events, text } = await readEvents(res.body!);
    // every byte is a whole `event: NAME\ndata: JSON\n\n`
    expect(text).toBe(events.map(eventText).join(''));
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('thinking');
    expect(events[0]!.data).toEqual({ content: expect.any(String) });
    const call = names.indexOf('tool_call');
    const result = names.indexOf('tool_result');
    expect(call).toBeGreaterThan(0);
    expect(result).toBe(call + 1);
    expect(events[call]!.data).toEqual({ tool: 'hl7v2_parse', params: { message: ASK } });
    expect(Object.keys(events[result]!.data)).toEqual(['result']);
    expect(events[result]!.data.result).toMatchObject({ valid: true, messages: [{ type: 'ADT^A01', control_id: 'MSG00001', version: '2.8' }] });
    const after = names.slice(result + 1, -1);
    expect(after).toContain('message');
    expect(after.every((n) => n === 'message' || n === 'thinking')).toBe(true);
    expect(names.at(-1)).toBe('done');
    expect(events.at(-1)!.data).toEqual({});
    expect(names.filter((n) => n === 'done' || n === 'error')).toEqual(['done']);

    const answer = events
      .filter((e) => e.event === 'message')
      .map((e) => e.data.content)
      .join('');
    const saved = await messagesOf(cid!);
    expect(saved.status).toBe(200);
    expect(saved.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(saved.body.messages[0]).toMatchObject({ content: ASK, reasoning_steps: [] });
    const assistant = saved.body.messages[1];
    expect(assistant).toMatchObject({ status: 'complete', content: answer, model: 'clinflow/offline', error: null });
    expect(assistant.reasoning_steps[0]).toEqual({ type: 'thinking', content: events[0]!.data.content });
    expect(assistant.reasoning_steps).toContainEqual({ type: 'tool_call', tool: 'hl7v2_parse', params: { message: ASK }, result: events[result]!.data.result });
  });

  it('sends each event as it happens: the tool call arrives while the tool is still waiting for its answer', async () => {
    // a tool whose server answers only once the client has seen the tool_call event: if the stream were held back
    // to the end, the tool would time out and its result would be an error instead of the answer
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const gate = createServer((req, res) => void released.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
    await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
    try {
      const port = (gate.address() as AddressInfo).port;
      const connector = await api.post('/api/connectors', {
        name: `gate-${Date.now()}`,
        type: 'http',
        endpoint: `http://127.0.0.1:${port}`,
        config: { auth: 'none' },
        credentials: {},
      });
      expect(connector.status, connector.text).toBe(201);
      const tool = await api.post('/api/tools', {
        name: 'slow_lookup',
        description: 'Looks something up slowly',
        input_schema: { type: 'object', properties: { query: { type: 'string' } } },
        implementation: { type: 'http', connector: connector.body.name, method: 'GET', path: '/lookup' },
      });
      expect(tool.status, tool.text).toBe(201);
      const agent = await api.post('/api/agents', { name: 'Gated', tools: [tool.body.id] });
      const res = await postRaw(target.url, org, `/api/agents/${agent.body.id}/chat`, { message: 'Please slow_lookup "potassium"', stream: true });
      expect(res.status).toBe(200);
      const { events } = await readEvents(res.body!, undefined, (e) => e.event === 'tool_call' && release());
      expect(events.map((e) => e.event).slice(0, 3)).toEqual(['thinking', 'tool_call', 'tool_result']);
      expect(events[2]!.data).toEqual({ result: { status: 200, body: { ok: true } } });
      expect(events.at(-1)!.event).toBe('done');
    } finally {
      release();
      gate.close();
    }
  }, 60_000);

  it('answers whole without stream: response, reasoning steps, conversation and message ids, usage; continues the conversation', async () => {
    const r = await api.post(chatPath(), { message: ASK });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['conversation_id', 'message_id', 'reasoning_steps', 'response', 'usage']);
    expect(r.body.response.length).toBeGreaterThan(0);
    expect(r.body.conversation_id).toMatch(UUID);
    expect(r.body.message_id).toMatch(UUID);
    expect(r.body.reasoning_steps[0]).toEqual({ type: 'thinking', content: expect.any(String) });
    expect(r.body.reasoning_steps).toContainEqual({
      type: 'tool_call',
      tool: 'hl7v2_parse',
      params: { message: ASK },
      result: expect.objectContaining({ valid: true }),
    });
    expect(r.body.usage).toMatchObject({
      model: 'clinflow/offline',
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
      latency_ms: expect.any(Number),
    });
    expect(r.body.usage.input_tokens).toBeGreaterThan(0);
    expect(r.headers.get('x-ratelimit-limit')).toBe('60');

    const next = await api.post(chatPath(), { message: 'Thanks. Summarize it in one sentence.', conversation_id: r.body.conversation_id });
    expect(next.status, next.text).toBe(200);
    expect(next.body.conversation_id).toBe(r.body.conversation_id);
    const saved = await messagesOf(r.body.conversation_id);
    expect(saved.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(saved.body.messages[1].id).toBe(r.body.message_id);
    expect(saved.body.messages[3]).toMatchObject({ id: next.body.message_id, content: next.body.response });

    // a conversation's own endpoint streams too, in that conversation
    const res = await postRaw(target.url, org, `/api/agents/${agentId}/conversations/${r.body.conversation_id}/messages`, {
      content: 'And the patient?',
      stream: true,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-conversation-id')).toBe(r.body.conversation_id);
    const { events } = await readEvents(res.body!);
    expect(events.at(-1)!.event).toBe('done');
    expect((await messagesOf(r.body.conversation_id)).body.total_count).toBe(6);
  });

  it("sends a conversation's message with chat's body ({message, stream}), content kept as an alias", async () => {
    const cid = (await api.post(`/api/agents/${agentId}/conversations`, {})).body.id;
    const sendPath = `/api/agents/${agentId}/conversations/${cid}/messages`;
    const sent = await api.post(sendPath, { message: ASK });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ conversation_id: cid, response: expect.any(String) });
    const streamed = await postRaw(target.url, org, sendPath, { message: 'And the patient?', stream: true });
    expect(streamed.status).toBe(200);
    expect((await readEvents(streamed.body!)).events.at(-1)!.event).toBe('done');
    expect((await api.post(sendPath, { content: 'Thanks.' })).status).toBe(200);
    const saved = (await messagesOf(cid)).body.messages.filter((m: { role: string }) => m.role === 'user');
    expect(saved.map((m: { content: string }) => m.content)).toEqual([ASK, 'And the patient?', 'Thanks.']);

    const none = await api.post(sendPath, { stream: false });
    expectError(none, 400, 'VALIDATION_FAILED');
    expect(none.body.error.details).toEqual([{ path: 'message', message: 'required: the message to send' }]);
    expectError(await api.post(sendPath, { message: 'one', content: 'another' }), 400, 'VALIDATION_FAILED');
    expectError(await api.post(sendPath, { message: '', stream: true }), 400, 'VALIDATION_FAILED');
    expect((await messagesOf(cid)).body.total_count).toBe(6);
  });

  it('saves the turn when the client goes away after the first event', async () => {
    const abort = new AbortController();
    const res = await postRaw(target.url, org, chatPath(), { message: ASK, stream: true }, { signal: abort.signal });
    expect(res.status).toBe(200);
    const cid = res.headers.get('x-conversation-id')!;
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^event: thinking\n/);
    abort.abort();

    const assistant = await waitFor('the assistant message to be saved', async () =>
      (await messagesOf(cid)).body.messages.find((m: { role: string }) => m.role === 'assistant'),
    );
    expect(assistant.status).toBe('complete');
    expect(assistant.content.length).toBeGreaterThan(0);
    expect(assistant.reasoning_steps).toContainEqual(
      expect.objectContaining({ type: 'tool_call', tool: 'hl7v2_parse', result: expect.objectContaining({ valid: true }) }),
    );
  });

  it("answers errors in the spec's shape, never as a stream", async () => {
    expectError(await api.get(`/api/agents/${UNKNOWN}`), 404, 'AGENT_NOT_FOUND');
    expectError(await api.post(`/api/agents/${UNKNOWN}/chat`, { message: 'hi' }), 404, 'AGENT_NOT_FOUND');
    expectError(await api.post(chatPath(), { message: '' }), 400, 'VALIDATION_FAILED');
    expectError(await api.post(chatPath(), { message: '', stream: true }), 400, 'VALIDATION_FAILED');
    const streamed = await api.post(`/api/agents/${UNKNOWN}/chat`, { message: 'hi', stream: true });
    expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
    expectError(streamed, 404, 'AGENT_NOT_FOUND');
    expectError(await api.post('/api/agents', { name: 'Nowhere', model_config: { model: 'nowhere/no-such-model' } }), 400, 'MODEL_NOT_FOUND');

    const template = await templateId(api, 'HL7 troubleshooter');
    expectError(await api.put(`/api/agents/${template}`, { name: 'Mine now' }), 403, 'AGENT_TEMPLATE_READ_ONLY');
    expectError(await api.del(`/api/agents/${template}`), 403, 'AGENT_TEMPLATE_READ_ONLY');
    expect((await api.get(`/api/agents/${template}`)).body).toMatchObject({ name: 'HL7 troubleshooter', is_template: true });

    const retired = await api.post('/api/agents', { name: 'Retired one', is_active: false });
    expect(retired.body.status).toBe('inactive');
    expectError(await api.post(`/api/agents/${retired.body.id}/chat`, { message: 'hi', stream: true }), 409, 'AGENT_INACTIVE');

    const doomed = await api.post('/api/agents', { name: 'Deployed one' });
    expect((await api.post(`/api/agents/${doomed.body.id}/deploy`)).body.status).toBe('deployed');
    expectError(await api.del(`/api/agents/${doomed.body.id}`), 409, 'AGENT_DEPLOYED');
    expect((await api.post(`/api/agents/${doomed.body.id}/undeploy`)).body.status).toBe('active');
    expect((await api.del(`/api/agents/${doomed.body.id}`)).status).toBe(204);
    expectError(await api.get(`/api/agents/${doomed.body.id}`), 404, 'AGENT_NOT_FOUND');
  });

  it('limits agent chat to 60 a minute per key, while the same key keeps its ordinary limit elsewhere', async () => {
    const key = client(target.url, await newKey(target.url, org, ['execute']));
    const answers: ApiResponse[] = [];
    for (let batch = 0; batch < 6; batch++) {
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => key.post(chatPath(), { message: 'hi' })))));
    }
    for (const r of answers) {
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');
    }
    expect(answers.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));

    const refused = await key.post(chatPath(), { message: 'hi' });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const streamRefused = await key.post(chatPath(), { message: 'hi', stream: true });
    expectError(streamRefused, 429, 'RATE_LIMITED');

    const list = await key.get('/api/agents');
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('x-ratelimit-limit'))).toBeGreaterThan(60);
    // another key of the same organization has its own budget
    expect((await api.post(chatPath(), { message: 'hi' })).status).toBe(200);
  });
});
