import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { AGENT_TEMPLATES } from './templates';

const ADT = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
const TROUBLESHOOTER = AGENT_TEMPLATES.find((t) => t.agent_type === 'hl7')!.id;
const FHIR_ASSISTANT = AGENT_TEMPLATES.find((t) => t.agent_type === 'fhir')!.id;

const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return (e as { cause?: { code?: string } }).cause?.code;
  }
  return 'no error';
};

describe('agents', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('lists the read-only base templates and copies one, tools and all', async () => {
    const a = await orgCaller(rt, 'org-agents-a');
    const templates = await a.agents.list({ base_templates: true, limit: 20, offset: 0 });
    expect(templates.agents.map((t) => t.agent_type)).toEqual(['summarizer', 'clinical', 'fhir', 'claims', 'hl7']);
    expect(templates.agents.every((t) => t.is_template)).toBe(true);
    expect(await code(a.agents.update({ id: TROUBLESHOOTER, name: 'mine' }))).toBe('AGENT_TEMPLATE_READ_ONLY');

    const copy = await a.agents.create({ template_id: TROUBLESHOOTER, name: 'ADT feed troubleshooter', project_id: 'feeds' });
    expect(copy).toMatchObject({
      name: 'ADT feed troubleshooter',
      agent_type: 'hl7',
      status: 'active',
      tools: ['hl7v2_parse'],
      template_id: TROUBLESHOOTER,
      model_config: { model: 'clinflow/offline' },
    });
    const mine = await a.agents.list({ limit: 20, offset: 0, project_id: 'feeds' });
    expect(mine.agents.map((x) => x.id)).toEqual([copy.id]);
    expect((await a.agents.list({ limit: 20, offset: 0, type: 'summarizer' })).total_count).toBe(0);
  });

  it('chats: the model calls the tool the message needs, the answer and its steps are saved, and the conversation continues', async () => {
    const a = await orgCaller(rt, 'org-agents-chat');
    const agent = await a.agents.create({ template_id: TROUBLESHOOTER });
    const first = await a.agents.chat({ id: agent.id, message: `Please hl7v2_parse this message:\n${ADT}`, stream: false });
    const call = first.reasoning_steps.find((s) => s.type === 'tool_call');
    expect(call).toMatchObject({ type: 'tool_call', tool: 'hl7v2_parse', result: { valid: true, messages: [{ type: 'ADT^A01' }] } });
    expect(first.reasoning_steps[0]).toMatchObject({ type: 'thinking', content: expect.stringContaining('hl7v2_parse') });
    expect(first.response).toContain('hl7v2_parse returned');
    expect(first.usage).toMatchObject({ model: 'clinflow/offline' });

    const second = await a.agents.send({
      id: agent.id,
      cid: first.conversation_id,
      content: 'Summarize what we found. The patient was admitted. Vitals were stable.',
      stream: false,
    });
    expect(second.conversation_id).toBe(first.conversation_id);
    const conversation = await a.agents.conversation({ id: agent.id, cid: first.conversation_id });
    expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(conversation.messages[1]!.reasoning_steps.some((s) => s.type === 'tool_call')).toBe(true);
    expect((await a.agents.conversations({ id: agent.id, limit: 20, offset: 0 })).conversations[0]).toMatchObject({
      id: first.conversation_id,
      message_count: 4,
    });
    // the most recently answered conversation comes first
    const other = await a.agents.chat({ id: agent.id, message: 'Another question.', stream: false });
    expect((await a.agents.conversations({ id: agent.id, limit: 20, offset: 0 })).conversations.map((c) => c.id)).toEqual([
      other.conversation_id,
      first.conversation_id,
    ]);
    await a.agents.send({ id: agent.id, cid: first.conversation_id, content: 'And one more.', stream: false });
    expect((await a.agents.conversations({ id: agent.id, limit: 20, offset: 0 })).conversations.map((c) => c.id)).toEqual([
      first.conversation_id,
      other.conversation_id,
    ]);
  });

  it('deploys only what can run, keeps the deployed configuration as a version, and refuses to delete while deployed', async () => {
    const a = await orgCaller(rt, 'org-agents-deploy');
    const fhir = await a.agents.create({ template_id: FHIR_ASSISTANT });
    expect(await code(a.agents.deploy({ id: fhir.id }))).toBe('AGENT_INVALID'); // fhir_search has no connector
    const agent = await a.agents.create({ name: 'Summarizer', prompt_template: 'Summarize: {{input}}' });
    expect(await code(a.agents.undeploy({ id: agent.id }))).toBe('AGENT_NOT_DEPLOYED');
    expect(await a.agents.deploy({ id: agent.id })).toMatchObject({ status: 'deployed', version: 1 });
    expect(await code(a.agents.remove({ id: agent.id }))).toBe('AGENT_DEPLOYED');
    expect(await code(a.agents.update({ id: agent.id, is_active: false }))).toBe('AGENT_DEPLOYED');
    expect(await a.agents.undeploy({ id: agent.id })).toMatchObject({ status: 'active' });
    expect(await a.agents.update({ id: agent.id, is_active: false })).toMatchObject({ status: 'inactive', is_active: false });
    expect(await code(a.agents.chat({ id: agent.id, message: 'hi', stream: false }))).toBe('AGENT_INACTIVE');
    expect(await code(a.agents.deploy({ id: agent.id }))).toBe('AGENT_INACTIVE');
    await a.agents.remove({ id: agent.id });
    expect(await code(a.agents.get({ id: agent.id }))).toBe('AGENT_NOT_FOUND');
  });

  it('chats with a named version: the snapshot, not the current configuration', async () => {
    const a = await orgCaller(rt, 'org-agents-versions');
    const agent = await a.agents.create({ name: 'Lister', instructions: 'List the medications.', prompt_template: '{{input}}' });
    const v1 = await a.agents.snapshot({ id: agent.id, note: 'lists' });
    expect(v1).toMatchObject({ version: 1, note: 'lists', config: { instructions: 'List the medications.' } });
    await a.agents.update({ id: agent.id, instructions: 'Summarize in 1 sentence.' });
    const note = 'Started metformin 500 mg po bid. Patient feels well. Follow up in 3 months.';
    expect((await a.agents.chat({ id: agent.id, message: note, stream: false, version: 1 })).response).toContain('- Medication: metformin 500 mg po bid');
    expect((await a.agents.chat({ id: agent.id, message: note, stream: false })).response).not.toContain('- Medication');
    expect(await code(a.agents.chat({ id: agent.id, message: note, stream: false, version: 7 }))).toBe('AGENT_VERSION_NOT_FOUND');
    expect((await a.agents.versions({ id: agent.id })).versions.map((v) => v.version)).toEqual([1]);
  });

  it('invokes only deployed agents, and only with an admin key or one scoped to that agent', async () => {
    const admin = await orgCaller(rt, 'org-agents-invoke');
    const agent = await admin.agents.create({ name: 'Summarizer', prompt_template: 'Summarize: {{input}}' });
    const other = await admin.agents.create({ name: 'Other' });
    expect(await code(admin.agents.invoke({ id: agent.id, input_data: { text: 'Fever for two days.' } }))).toBe('AGENT_NOT_DEPLOYED');
    await admin.agents.deploy({ id: agent.id });
    const scoped = await orgCaller(rt, 'org-agents-invoke', [`agent/${agent.id}:execute`]);
    const out = await scoped.agents.invoke({ id: agent.id, input_data: { text: 'Fever for two days. Started paracetamol.' } });
    expect(out).toMatchObject({ agent_id: agent.id, output: expect.stringContaining('Fever for two days'), usage: { model: 'clinflow/offline' } });
    const wrong = await orgCaller(rt, 'org-agents-invoke', [`agent/${other.id}:execute`]);
    expect(await code(wrong.agents.invoke({ id: agent.id, input_data: { text: 'x' } }))).toBe('FORBIDDEN');
    expect(await code(scoped.agents.get({ id: agent.id }))).toBe('FORBIDDEN');
  });

  it('keeps organizations apart: agents, conversations, tools and versions', async () => {
    const a = await orgCaller(rt, 'org-agents-x');
    const b = await orgCaller(rt, 'org-agents-y');
    const agent = await a.agents.create({ name: 'Private' });
    const turn = await a.agents.chat({ id: agent.id, message: 'Blood pressure 150/95 today.', stream: false });
    expect(await code(b.agents.get({ id: agent.id }))).toBe('AGENT_NOT_FOUND');
    expect(await code(b.agents.conversation({ id: agent.id, cid: turn.conversation_id }))).toBe('CONVERSATION_NOT_FOUND');
    expect(await code(b.agents.endConversation({ id: agent.id, cid: turn.conversation_id }))).toBe('CONVERSATION_NOT_FOUND');
    expect(await code(b.agents.messages({ id: agent.id, cid: turn.conversation_id }))).toBe('CONVERSATION_NOT_FOUND');
    expect(await code(b.agents.versions({ id: agent.id }))).toBe('AGENT_NOT_FOUND');
    expect(await code(b.agents.chat({ id: agent.id, message: 'hi', stream: false }))).toBe('AGENT_NOT_FOUND');
    expect((await b.agents.list({ limit: 20, offset: 0 })).total_count).toBe(0);

    const pipeline = await a.pipelines.create({ name: 'echo' });
    const tool = await a.tools.create({
      name: 'echo_tool',
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      implementation: { type: 'pipeline', pipeline_id: pipeline.id },
    });
    expect(await code(b.tools.get({ id: tool.id }))).toBe('TOOL_NOT_FOUND');
    expect(await code(b.tools.remove({ id: tool.id }))).toBe('TOOL_NOT_FOUND');
    expect((await b.tools.list({})).tools.some((t) => t.id === tool.id)).toBe(false);
    const theirs = await b.agents.create({ name: 'Theirs' });
    expect(await code(b.agents.assign({ id: theirs.id, tool_id: tool.id }))).toBe('TOOL_NOT_FOUND');
    expect(
      await code(b.tools.create({ name: 'x_tool', input_schema: { type: 'object' }, implementation: { type: 'pipeline', pipeline_id: pipeline.id } })),
    ).toBe('VALIDATION_FAILED');
  });

  it('runs the pipeline the run_pipeline tool is given, and says so when it is given none', async () => {
    const a = await orgCaller(rt, 'org-agents-run-pipeline');
    const definition = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
        { id: 'answer', type: 'jsonata-transform', config: { expression: '{"answer": 42}' }, position: { x: 1, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: {}, position: { x: 2, y: 0 } },
      ],
      connections: [
        { source: 'in', source_port: 'event', target: 'answer', target_port: 'input' },
        { source: 'answer', source_port: 'output', target: 'out', target_port: 'value' },
      ],
    };
    const p = await a.pipelines.create({ name: 'the answer', description: '', definition });
    await a.pipelines.deploy({ id: p.id });
    const agent = await a.agents.create({ name: 'Runner', tools: ['run_pipeline'] });
    const toolResult = async () => {
      const r = await a.agents.chat({ id: agent.id, message: 'Please run_pipeline now', stream: false });
      return r.reasoning_steps.find((s) => s.type === 'tool_call');
    };
    expect(await toolResult()).toMatchObject({ tool: 'run_pipeline', result: { error: { code: 'PIPELINE_REQUIRED' } } });

    await a.agents.assign({ id: agent.id, tool_id: 'run_pipeline', config: { pipeline_id: p.id } });
    const call = await toolResult();
    expect(call).toMatchObject({ tool: 'run_pipeline', result: { status: 'completed', outputs: { out: { answer: 42 } } } });
    const ran = await a.executions.get({ id: (call as { result: { execution_id: string } }).result.execution_id });
    expect(ran).toMatchObject({ pipeline_id: p.id, status: 'completed', test_mode: false });
  });

  it('saves a turn whose tool answered with characters Postgres cannot store (NUL), as U+FFFD', async () => {
    const a = await orgCaller(rt, 'org-agents-nul');
    const definition = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
        { id: 'echo', type: 'jsonata-transform', config: { expression: '{"text": "a" & "\\u0000" & "b"}' }, position: { x: 1, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: {}, position: { x: 2, y: 0 } },
      ],
      connections: [
        { source: 'in', source_port: 'event', target: 'echo', target_port: 'input' },
        { source: 'echo', source_port: 'output', target: 'out', target_port: 'value' },
      ],
    };
    const p = await a.pipelines.create({ name: 'nul', description: '', definition });
    await a.pipelines.deploy({ id: p.id });
    const tool = await a.tools.create({
      name: 'odd_echo',
      description: 'Echoes oddly',
      input_schema: { type: 'object' },
      implementation: { type: 'pipeline', pipeline_id: p.id },
    });
    const agent = await a.agents.create({ name: 'Odd', tools: [tool.id] });
    const r = await a.agents.chat({ id: agent.id, message: 'Please odd_echo now', stream: false });
    const stored = await a.agents.messages({ id: agent.id, cid: r.conversation_id });
    expect(stored.messages[1]).toMatchObject({ status: 'complete' });
    expect(JSON.stringify(stored.messages[1]!.reasoning_steps)).toContain('a\ufffdb');
  });
});
