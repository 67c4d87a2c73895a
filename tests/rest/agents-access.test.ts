import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { echoTool, newKey, postRaw } from '../support/agents';
import { client, expectError, type ApiResponse, type Client } from '../support/client';

const ids = (r: ApiResponse, list: string) => r.body[list].map((x: { id: string }) => x.id);

describe.each(inject('targets'))('agent invoke and organizations on $name', (target) => {
  let orgA: Awaited<ReturnType<typeof orgWithKey>>;
  let a: Client;
  let b: Client;
  beforeAll(async () => {
    const stamp = `${target.name}-${Date.now()}`;
    orgA = await orgWithKey(target.url, `agents-a-${stamp}@example.org`);
    a = client(target.url, orgA);
    b = client(target.url, await orgWithKey(target.url, `agents-b-${stamp}@example.org`));
  });

  it('invokes a deployed agent with a key scoped to it or an admin key, and with nothing else', async () => {
    const agent = (await a.post('/api/agents', { name: 'Note summarizer', instructions: 'Summarize in 1 sentence.' })).body.id as string;
    const other = (await a.post('/api/agents', { name: 'Someone else' })).body.id as string;
    const scoped = client(target.url, await newKey(target.url, orgA, [`agent/${agent}:execute`]));
    const otherScoped = client(target.url, await newKey(target.url, orgA, [`agent/${other}:execute`]));
    const readOnly = client(target.url, await newKey(target.url, orgA, ['read']));
    const invoke = `/api/v1/agents/${agent}/invoke`;
    const body = { input_data: { text: 'Patient admitted with chest pain. Troponin normal. Discharged on aspirin 81 mg daily.' } };

    expectError(await a.post(invoke, body), 409, 'AGENT_NOT_DEPLOYED');
    expectError(await scoped.post(invoke, body), 409, 'AGENT_NOT_DEPLOYED');
    const deployed = await a.post(`/api/agents/${agent}/deploy`);
    expect(deployed.status, deployed.text).toBe(200);
    expect(deployed.body.status).toBe('deployed');

    const ok = await scoped.post(invoke, body);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ agent_id: agent, output: expect.stringMatching(/\S/), conversation_id: expect.any(String) });
    expect(ok.body.usage).toMatchObject({ model: 'clinflow/offline', input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(ok.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await a.post(invoke, body)).status).toBe(200);

    expectError(await otherScoped.post(invoke, body), 403, 'FORBIDDEN');
    expectError(await readOnly.post(invoke, body), 403, 'FORBIDDEN');
    expectError(await scoped.get('/api/agents'), 403, 'FORBIDDEN');
    expectError(await scoped.post(`/api/agents/${agent}/chat`, { message: 'hi' }), 403, 'FORBIDDEN');
    const anonymous = await postRaw(target.url, undefined, invoke, body);
    const text = await anonymous.text();
    expectError({ status: anonymous.status, headers: anonymous.headers, body: JSON.parse(text), text }, 401, 'UNAUTHENTICATED');
    expectError(await b.post(invoke, body), 404, 'AGENT_NOT_FOUND');
    // the invocations are conversations of the agent, source invoke
    const conversations = await a.get(`/api/agents/${agent}/conversations`);
    expect(conversations.body.conversations.map((c: { source: string }) => c.source)).toEqual(['invoke', 'invoke']);
  });

  it("keeps agents, conversations, tools and versions of one organization out of another's reach", async () => {
    const { toolId } = await echoTool(a, 'echo_secret', 'text', 'Echoes a secret note back');
    const agent = (await a.post('/api/agents', { name: 'A only agent', tools: ['hl7v2_parse', toolId] })).body.id as string;
    const chat = await a.post(`/api/agents/${agent}/chat`, { message: 'hello from A' });
    expect(chat.status, chat.text).toBe(200);
    const cid = chat.body.conversation_id as string;
    expect((await a.post(`/api/agents/${agent}/versions`, { note: 'first' })).status).toBe(201);
    const ownAgent = (await b.post('/api/agents', { name: 'B agent' })).body.id as string;

    const agentCalls: [string, () => Promise<ApiResponse>][] = [
      ['GET agent', () => b.get(`/api/agents/${agent}`)],
      ['PUT agent', () => b.put(`/api/agents/${agent}`, { name: 'hijacked' })],
      ['DELETE agent', () => b.del(`/api/agents/${agent}`)],
      ['deploy', () => b.post(`/api/agents/${agent}/deploy`)],
      ['chat', () => b.post(`/api/agents/${agent}/chat`, { message: 'hi' })],
      ['chat stream', () => b.post(`/api/agents/${agent}/chat`, { message: 'hi', stream: true })],
      ['conversations', () => b.get(`/api/agents/${agent}/conversations`)],
      ['tools', () => b.get(`/api/agents/${agent}/tools`)],
      ['assign tool', () => b.post(`/api/agents/${agent}/tools`, { tool_id: 'terminology_lookup' })],
      ['versions', () => b.get(`/api/agents/${agent}/versions`)],
      ['snapshot', () => b.post(`/api/agents/${agent}/versions`, { note: 'mine' })],
    ];
    for (const [name, call] of agentCalls) {
      const r = await call();
      expectError(r, 404, 'AGENT_NOT_FOUND');
      expect(r.text, name).not.toContain('A only agent');
    }
    const conversationCalls: [string, () => Promise<ApiResponse>][] = [
      ['GET conversation', () => b.get(`/api/agents/${agent}/conversations/${cid}`)],
      ['DELETE conversation', () => b.del(`/api/agents/${agent}/conversations/${cid}`)],
      ['messages', () => b.get(`/api/agents/${agent}/conversations/${cid}/messages`)],
      ['send', () => b.post(`/api/agents/${agent}/conversations/${cid}/messages`, { content: 'hi' })],
      ['own agent, their conversation', () => b.get(`/api/agents/${ownAgent}/conversations/${cid}/messages`)],
      ['continue their conversation', () => b.post(`/api/agents/${ownAgent}/chat`, { message: 'hi', conversation_id: cid })],
    ];
    for (const [name, call] of conversationCalls) {
      const r = await call();
      expect(r.status, `${name}: ${r.text}`).toBe(404);
      expect(['AGENT_NOT_FOUND', 'CONVERSATION_NOT_FOUND'], name).toContain(r.body.error.code);
      expect(r.text, name).not.toContain('hello from A');
    }
    for (const call of [
      () => b.get(`/api/tools/${toolId}`),
      () => b.put(`/api/tools/${toolId}`, { description: 'hijacked' }),
      () => b.del(`/api/tools/${toolId}`),
    ]) {
      expectError(await call(), 404, 'TOOL_NOT_FOUND');
    }
    // A's tool is unknown to B, as any unknown tool is (404 when assigned; 400 inside an agent's body)
    expectError(await b.post(`/api/agents/${ownAgent}/tools`, { tool_id: toolId }), 404, 'TOOL_NOT_FOUND');
    expect(ids(await b.get(`/api/agents/${ownAgent}/tools`), 'tools')).toEqual([]);

    expectError(await b.post('/api/agents', { name: 'B with A tool', tools: [toolId] }), 400, 'VALIDATION_FAILED');
    expect(ids(await b.get('/api/agents'), 'agents')).not.toContain(agent);
    expect(ids(await b.get('/api/tools'), 'tools')).not.toContain(toolId);
    expect(ids(await b.get(`/api/agents/${ownAgent}/conversations`), 'conversations')).not.toContain(cid);

    // A's things are as they were
    expect((await a.get(`/api/agents/${agent}`)).body).toMatchObject({ name: 'A only agent', status: 'active', tools: ['hl7v2_parse', toolId] });
    expect((await a.get(`/api/agents/${agent}/conversations/${cid}/messages`)).body.total_count).toBe(2);
    expect((await a.get(`/api/tools/${toolId}`)).body).toMatchObject({ name: 'echo_secret', description: 'Echoes a secret note back' });
    expect((await a.get(`/api/agents/${agent}/versions`)).body.versions.map((v: { note: string }) => v.note)).toEqual(['first']);
  });
});
