import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey, type Org } from '../support/accounts';
import { echoTool, postRaw, readEvents } from '../support/agents';
import { client, expectError, type Client } from '../support/client';

const BUILTINS = ['fhir_search', 'terminology_lookup', 'run_pipeline', 'hl7v2_parse', 'deidentify_text'];

describe.each(inject('targets'))('agent tools over REST on $name', (target) => {
  let org: Org;
  let api: Client;
  beforeAll(async () => {
    org = await orgWithKey(target.url, `tools-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
  });

  it('lists the five built-in tools with their input schemas', async () => {
    const r = await api.get('/api/tools');
    expect(r.status).toBe(200);
    expect(r.body.tools.map((t: { id: string }) => t.id)).toEqual(BUILTINS);
    for (const t of r.body.tools) {
      expect(t).toMatchObject({ id: t.name, builtin: true, implementation: null });
      expect(t.input_schema).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(t.description.length).toBeGreaterThan(0);
    }
    expectError(await api.del('/api/tools/hl7v2_parse'), 403, 'TOOL_READ_ONLY');
  });

  it('runs a pipeline tool assigned to an agent, and keeps the tool while an agent uses it', async () => {
    const { toolId } = await echoTool(api, 'echo_note', 'note', 'Echoes a clinical note back unchanged');
    expect(ids(await api.get('/api/tools'))).toEqual([...BUILTINS, toolId]);
    const agent = (await api.post('/api/agents', { name: 'Echo agent' })).body.id as string;
    const assigned = await api.post(`/api/agents/${agent}/tools`, { tool_id: toolId });
    expect(assigned.status, assigned.text).toBe(201);
    expect(assigned.body).toMatchObject({ id: toolId, name: 'echo_note', builtin: false, implementation: { type: 'pipeline' } });
    expect(ids(await api.get(`/api/agents/${agent}/tools`))).toEqual([toolId]);
    // assigning an unknown tool names the tool (404), as the tool endpoints do
    expectError(await api.post(`/api/agents/${agent}/tools`, { tool_id: '00000000-0000-4000-8000-00000000dead' }), 404, 'TOOL_NOT_FOUND');
    expectError(await api.post(`/api/agents/${agent}/tools`, { tool_id: 'no_such_tool' }), 404, 'TOOL_NOT_FOUND');

    const message = 'Call echo_note with: pt stable, afebrile';
    const res = await postRaw(target.url, org, `/api/agents/${agent}/chat`, { message, stream: true });
    expect(res.status).toBe(200);
    const { events } = await readEvents(res.body!);
    const call = events.find((e) => e.event === 'tool_call')!;
    expect(call.data).toEqual({ tool: 'echo_note', params: { note: message } });
    const result = events.find((e) => e.event === 'tool_result')!;
    expect(result.data.result).toMatchObject({ status: 'completed', outputs: { note: message }, execution_id: expect.any(String) });
    expect(events.at(-1)!.event).toBe('done');

    expectError(await api.del(`/api/tools/${toolId}`), 409, 'TOOL_IN_USE');
    expect((await api.del(`/api/agents/${agent}/tools/${toolId}`)).status).toBe(204);
    expect(ids(await api.get(`/api/agents/${agent}/tools`))).toEqual([]);
    expect((await api.del(`/api/tools/${toolId}`)).status).toBe(204);
    expectError(await api.get(`/api/tools/${toolId}`), 404, 'TOOL_NOT_FOUND');
  });
});

const ids = (r: { body: { tools: { id: string }[] } }) => r.body.tools.map((t) => t.id);
