import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw, readEvents } from '../support/agents';
import { client, expectError, type Client } from '../support/client';
import { startOpenAiServer, type SeenRequest } from '../support/openai-server';
import { startServer, tempDir, type RunningServer } from '../support/server';

const ORG = { id: 'copilot-llm-org', key: 'cfk_copilot_llm_test_key_0123456789' };
const MODEL = 'ollama/llama3.1:8b';
const ADT = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');

const node = (id: string, type: string, config: Record<string, unknown>) => ({ id, type, config: JSON.stringify(config) });
const link = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });

/** What a model that forgot the parse step would answer: text into an HL7 v2 input, and an output key that is not a string. */
const FIRST = {
  name: 'ADT to FHIR',
  reasoning: ['Take the message', 'Convert it to FHIR', 'Validate the bundle'],
  nodes: [
    node('start', 'manual-trigger', { fields: { message: 'text' } }),
    node('to_fhir', 'hl7v2-to-fhir', {}),
    node('check', 'fhir-validate', { expect: 'bundle' }),
    node('out', 'pipeline-output', { key: 5 }),
  ],
  connections: [link('start', 'message', 'to_fhir', 'message'), link('to_fhir', 'bundle', 'check', 'resource'), link('check', 'valid', 'out', 'value')],
};
/** The same design corrected, as a model answers once told the validator's findings. */
const CORRECTED = {
  ...FIRST,
  nodes: [
    node('start', 'manual-trigger', { fields: { message: 'text' } }),
    node('parse', 'hl7v2-parse', {}),
    node('to_fhir', 'hl7v2-to-fhir', {}),
    node('check', 'fhir-validate', { expect: 'bundle' }),
    node('out', 'pipeline-output', { key: 'bundle' }),
  ],
  connections: [
    link('start', 'message', 'parse', 'text'),
    link('parse', 'message', 'to_fhir', 'message'),
    link('to_fhir', 'bundle', 'check', 'resource'),
    link('check', 'valid', 'out', 'value'),
  ],
};

const lastUser = (body: SeenRequest['body']) => String(body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
const systemOf = (body: SeenRequest['body']) => String(body.messages.find((m) => m.role === 'system')?.content ?? '');

/**
 * The model's part, played by the test over the OpenAI-compatible API (what Ollama or vLLM would answer): it reads
 * the request and, on a second turn, the validator's findings the planner sent back, and answers as a model would.
 * What is under test is the planner around it — the prompt, the constrained answer, the validation and repair loop.
 */
function modelAnswer(body: SeenRequest['body']): string {
  const asked = String(body.messages.find((m) => m.role === 'user')?.content ?? '');
  const told = lastUser(body);
  if (asked.includes('stubborn')) return JSON.stringify(FIRST);
  if (asked.includes('out of shape') && !told.includes('required shape'))
    return JSON.stringify({ ...CORRECTED, nodes: [{ id: 'x', type: 'hl7v2-magic', config: '{}' }] });
  return JSON.stringify(told.includes('PORT_TYPE') || told.includes('required shape') ? CORRECTED : FIRST);
}

describe('the copilot designing with a language model (OpenAI-compatible API), over HTTP', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiServer>>;
  let server: RunningServer;
  let api: Client;
  beforeAll(async () => {
    llm = await startOpenAiServer(modelAnswer);
    server = await startServer({
      DATA_DIR: tempDir('copilot-llm'),
      BOOTSTRAP_ORG_ID: ORG.id,
      BOOTSTRAP_API_KEY: ORG.key,
      OPENAI_COMPATIBLE_BASE_URL: llm.url,
      OPENAI_COMPATIBLE_MODELS: 'llama3.1:8b:131072',
      OPENAI_COMPATIBLE_NAME: 'ollama',
    });
    api = client(server.url, ORG);
  });
  afterAll(async () => {
    await server?.stop();
    await llm?.close();
  });

  it('says the LLM planner is available once a model is configured', async () => {
    const h = await api.get('/api/copilot/health');
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ planner: 'offline', default_model: 'clinflow/offline', models: [MODEL] });
    expect(h.body.planners).toContainEqual(expect.objectContaining({ id: 'llm', available: true }));
  });

  it("puts the relevant catalog in the prompt, constrains the answer to the catalog, and sends the validator's findings back until it is valid", async () => {
    const before = llm.seen.length;
    const description = 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles';
    const r = await api.post('/api/copilot/generate/pipeline', { description, model: MODEL, sample_input: ADT });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ planner: 'llm', model: MODEL, attempts: 2, usage: { input_tokens: 2000, output_tokens: 400 } });
    expect(r.body.validation).toMatchObject({ valid: true, errors: [] });
    expect(r.body.pipeline.name).toBe('ADT to FHIR');
    expect(r.body.pipeline.nodes.map((n: { type: string }) => n.type)).toEqual([
      'manual-trigger',
      'hl7v2-parse',
      'hl7v2-to-fhir',
      'fhir-validate',
      'pipeline-output',
    ]);
    // laid out left to right along the flow
    const x = Object.fromEntries(r.body.pipeline.nodes.map((n: { id: string; position: { x: number } }) => [n.id, n.position.x]));
    expect(x.start).toBeLessThan(x.parse);
    expect(x.parse).toBeLessThan(x.to_fhir);
    expect(x.check).toBeLessThan(x.out);
    // the design ran on the sample in test mode
    expect(r.body.dry_run).toMatchObject({ status: 'completed' });
    expect(r.body.dry_run.outputs.bundle).toMatchObject({ resourceType: 'Bundle' });
    expect(r.body.reasoning.join('\n')).toMatch(/Answer 1: the validator found .*PORT_TYPE/);
    expect(r.body.reasoning.join('\n')).toMatch(/Answer 2: checked with the engine's validator: valid/);

    const [first, second] = llm.seen.slice(before);
    expect(llm.seen.length - before).toBe(2);
    // the answer's schema: strict, node types an enum of the whole catalog
    const types = (await api.get('/api/node-catalog')).body.nodes.map((n: { id: string }) => n.id);
    expect(types.length).toBeGreaterThan(30);
    expect(first!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    const schema = first!.body.response_format!.json_schema!.schema as { properties: { nodes: { items: { properties: { type: { enum: string[] } } } } } };
    expect([...schema.properties.nodes.items.properties.type.enum].sort()).toEqual([...types].sort());
    // the prompt: the rules, the catalog entries this request needs (with ports and configs), the request
    const system = systemOf(first!.body);
    expect(system).toContain('### hl7v2-parse');
    expect(system).toContain('### hl7v2-to-fhir');
    expect(system).toContain('### fhir-validate');
    expect(system).toMatch(/in `text` \(text\)/);
    expect(system).not.toContain('### postgres-write');
    expect(system).not.toContain('### summarize');
    expect(lastUser(first!.body)).toContain(description);
    // the repair turn: its own answer, then what the validator found, naming the nodes
    const repair = second!.body.messages;
    expect(repair.at(-2)).toMatchObject({ role: 'assistant' });
    expect(JSON.parse(String(repair.at(-2)!.content))).toMatchObject({ name: 'ADT to FHIR' });
    expect(lastUser(second!.body)).toMatch(/to_fhir: PORT_TYPE_MISMATCH/);
    expect(lastUser(second!.body)).toMatch(/out: INVALID_CONFIG/);
  });

  it('returns a proposal the model could not make valid with its errors, never as if it were fine', async () => {
    const before = llm.seen.length;
    const r = await api.post('/api/copilot/generate/pipeline', { description: 'A stubborn request: HL7 ADT to FHIR', model: MODEL });
    expect(r.status, r.text).toBe(200);
    expect(llm.seen.length - before).toBe(3);
    expect(r.body).toMatchObject({ planner: 'llm', attempts: 3, dry_run: null });
    expect(r.body.validation.valid).toBe(false);
    expect(r.body.validation.errors).toContainEqual(expect.objectContaining({ node_id: 'to_fhir', code: 'PORT_TYPE_MISMATCH' }));
    expect(r.body.unresolved.join('\n')).toMatch(/out: INVALID_CONFIG/);
    expect(r.body.reasoning.at(-1)).toMatch(/still not valid/);
  });

  it('asks again when an answer does not fit the catalog (a node type that does not exist)', async () => {
    const before = llm.seen.length;
    const r = await api.post('/api/copilot/generate/pipeline', { description: 'HL7 ADT to FHIR, answered out of shape first', model: MODEL });
    expect(r.status, r.text).toBe(200);
    expect(llm.seen.length - before).toBe(2);
    expect(r.body).toMatchObject({ planner: 'llm', attempts: 2, validation: { valid: true } });
    expect(r.body.reasoning.join('\n')).toMatch(/Answer 1: not in the required shape/);
    expect(r.body.pipeline.nodes.map((n: { type: string }) => n.type)).not.toContain('hl7v2-magic');
  });

  it("streams the model's design in the copilot chat", async () => {
    const res = await postRaw(server.url, ORG, '/api/copilot/chat', {
      message: 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles',
      stream: true,
      model: MODEL,
    });
    expect(res.status).toBe(200);
    const { events } = await readEvents(res.body!);
    const thinking = events.filter((e) => e.event === 'thinking').map((e) => e.data.content as string);
    expect(thinking.some((t) => t.startsWith(`Asked ${MODEL}`))).toBe(true);
    expect(events.find((e) => e.event === 'validation')!.data).toMatchObject({ valid: true });
    expect(events.at(-1)!.event).toBe('done');
  });

  it("edits a pipeline with the model: its first answer sent back with the validator's findings, the corrected one shown, nothing saved", async () => {
    const definition = {
      nodes: [
        { id: 'start', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
        { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 260, y: 0 } },
        { id: 'to_fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 520, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: { key: 'bundle' }, position: { x: 780, y: 0 } },
      ],
      connections: [link('start', 'message', 'parse', 'text'), link('parse', 'message', 'to_fhir', 'message'), link('to_fhir', 'bundle', 'out', 'value')],
    };
    const r = await api.post('/api/copilot/modify/pipeline', { definition, request: 'Validate the bundle before the output', model: MODEL });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ planner: 'llm', model: MODEL, validation: { valid: true }, saved_version: null, diff: { added: ['check'] } });
    expect(r.body.reasoning.join('\n')).toMatch(/Answer 1: the validator found .*PORT_TYPE/);
    expect(r.body.reasoning.join('\n')).toContain("Answer 2: checked with the engine's validator: valid.");
    expect(r.body.definition.nodes.find((n: { id: string }) => n.id === 'to_fhir').position).toEqual({ x: 520, y: 0 });
  });

  it('refuses a model that is not there before doing anything', async () => {
    expectError(await api.post('/api/copilot/generate/pipeline', { description: 'HL7 ADT to FHIR', model: 'ollama/not-served' }), 400, 'MODEL_NOT_FOUND');
    expectError(await api.post('/api/copilot/generate/pipeline', { description: 'HL7 ADT to FHIR', model: 'openai/gpt-4o' }), 400, 'MODEL_UNAVAILABLE');
    const res = await postRaw(server.url, ORG, '/api/copilot/chat', { message: 'HL7 ADT to FHIR', stream: true, model: 'anthropic/claude-sonnet-4-0' });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('MODEL_UNAVAILABLE');
  });

  it('falls back to the offline planner when the model server is gone, and says so', async () => {
    await llm.close();
    const r = await api.post('/api/copilot/generate/pipeline', {
      description: 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles',
      model: MODEL,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ planner: 'offline', model: 'clinflow/offline', validation: { valid: true } });
    expect(r.body.reasoning[0]).toMatch(/^The language model call failed \(ollama\/llama3\.1:8b: .*\)\. The offline planner answered instead\./);
  });
});
