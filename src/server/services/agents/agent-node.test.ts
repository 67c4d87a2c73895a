import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

/**
 * in (manual-trigger, field text) ──▶ ask (agent) ──▶ out
 */
const definition = (agentId: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'ask', type: 'agent', config: { agent_id: agentId }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'ask', target_port: 'input' },
    { source: 'ask', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

const NOTE = 'Admitted with chest pain. Troponin negative. Started aspirin 81 mg po daily. Discharged home.';

describe('the agent node', () => {
  let rt: Runtime;
  const seen: string[] = [];
  let sink: ReturnType<typeof createServer>;
  let sinkUrl = '';
  beforeAll(async () => {
    rt = await memoryRuntime();
    sink = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    sink.close();
    await rt.database.close();
  });

  it('runs a deployed agent in a real execution, and an active one only in a test run', async () => {
    const a = await orgCaller(rt, 'org-agent-node');
    const agent = await a.agents.create({ name: 'Summarizer', instructions: 'Summarize in 2 sentences.' });
    const p = await a.pipelines.create({ name: 'summarize notes', description: '', definition: definition(agent.id) });

    const test = await a.executions.execute({ pipeline_id: p.id, inputs: { text: NOTE }, test_mode: true, async: false });
    expect(test.status).toBe('completed');
    expect(test.outputs?.out).toMatch(/^\[clinflow\/offline: rule-based, no LLM\] .*aspirin 81 mg/);

    await a.pipelines.deploy({ id: p.id });
    const refused = await a.executions.execute({ pipeline_id: p.id, inputs: { text: NOTE }, test_mode: false, async: false });
    expect(refused).toMatchObject({ status: 'failed', error: { node_id: 'ask', code: 'AGENT_NOT_DEPLOYED' } });

    await a.agents.deploy({ id: agent.id });
    const real = await a.executions.execute({ pipeline_id: p.id, inputs: { text: NOTE }, test_mode: false, async: false });
    expect(real.status).toBe('completed');
    const conversations = await a.agents.conversations({ id: agent.id, limit: 20, offset: 0 });
    expect(conversations.conversations.map((c) => c.source)).toEqual(['pipeline', 'pipeline']);
  });

  it("writes nothing through the agent's tools in a test run: an HTTP POST tool describes its request instead", async () => {
    const a = await orgCaller(rt, 'org-agent-node-tools');
    await a.connectors.create({ name: 'sink', type: 'http', endpoint: sinkUrl, config: { auth: 'none' }, credentials: {} });
    const tool = await a.tools.create({
      name: 'file_report',
      description: 'File a report',
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      implementation: { type: 'http', connector: 'sink', method: 'POST', path: '/reports' },
    });
    const agent = await a.agents.create({ name: 'Reporter', tools: [tool.id] });
    const p = await a.pipelines.create({ name: 'report', description: '', definition: definition(agent.id) });
    const r = await a.executions.execute({ pipeline_id: p.id, inputs: { text: 'Please file_report "fever resolved"' }, test_mode: true, async: false });
    expect(r.status).toBe('completed');
    expect(r.outputs?.out).toContain('- simulated: true');
    expect(seen).toEqual([]);
  });

  it("closes the circle through the services' host: a pipeline's agent calls a pipeline tool, which runs its pipeline", async () => {
    const a = await orgCaller(rt, 'org-agent-node-circle');
    const echo = await a.pipelines.create({
      name: 'echo note',
      description: '',
      definition: {
        nodes: [
          { id: 'in', type: 'manual-trigger', config: { fields: { note: 'text' } }, position: { x: 0, y: 0 } },
          { id: 'out', type: 'pipeline-output', config: { key: 'note' }, position: { x: 0, y: 0 } },
        ],
        connections: [{ source: 'in', source_port: 'note', target: 'out', target_port: 'value' }],
      },
    });
    const tool = await a.tools.create({
      name: 'echo_note',
      description: 'Echoes a clinical note back unchanged',
      input_schema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
      implementation: { type: 'pipeline', pipeline_id: echo.id },
    });
    const agent = await a.agents.create({ name: 'Echoer', tools: [tool.id] });
    const { nodes, connections } = definition(agent.id);
    const def = {
      nodes: [...nodes, { id: 'steps', type: 'pipeline-output', config: { key: 'steps' }, position: { x: 0, y: 0 } }],
      connections: [...connections, { source: 'ask', source_port: 'steps', target: 'steps', target_port: 'value' }],
    };
    const p = await a.pipelines.create({ name: 'ask the echoer', description: '', definition: def });

    const message = 'Call echo_note with: pt stable, afebrile';
    const r = await a.executions.execute({ pipeline_id: p.id, inputs: { text: message }, test_mode: true, async: false });
    expect(r.status).toBe('completed');
    const steps = r.outputs?.steps as { type: string; tool?: string; result?: { execution_id: string } }[];
    const call = steps.find((s) => s.type === 'tool_call')!;
    expect(call).toMatchObject({ tool: 'echo_note', params: { note: message }, result: { status: 'completed', outputs: { note: message } } });
    // the tool's pipeline ran as an execution of its own, a test run as the one that called it
    const ran = await a.executions.get({ id: call.result!.execution_id });
    expect(ran).toMatchObject({ pipeline_id: echo.id, status: 'completed', test_mode: true, outputs: { note: message } });
  });
});
