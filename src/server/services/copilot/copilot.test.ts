import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

const at = { x: 0, y: 0 };
const node = (id: string, type: string, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  id,
  type,
  config,
  position: at,
  ...extra,
});
const link = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });

/**
 * in (manual-trigger, field message: text) ──▶ parse (hl7v2-parse) ──▶ to_fhir ──▶ write (fhir-write, transaction)
 *                                                                        └──▶ ask (llm-prompt, openai) ──▶ out
 */
const risky = {
  nodes: [
    node('in', 'manual-trigger', { fields: { message: 'text' } }),
    node('parse', 'hl7v2-parse'),
    node('to_fhir', 'hl7v2-to-fhir'),
    node('write', 'fhir-write', { connector: 'hapi', operation: 'transaction' }),
    node('ask', 'llm-prompt', { model: 'openai/gpt-4o-mini' }),
    node('out', 'pipeline-output'),
  ],
  connections: [
    link('in', 'message', 'parse', 'text'),
    link('parse', 'message', 'to_fhir', 'message'),
    link('to_fhir', 'bundle', 'write', 'resource'),
    link('to_fhir', 'bundle', 'ask', 'input'),
    link('ask', 'text', 'out', 'value'),
  ],
};

describe('the copilot', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it("validates with the engine's checks, one error per broken kind, each on its node", async () => {
    const a = await orgCaller(rt, 'org-copilot-validate');
    const broken = {
      nodes: [node('in', 'manual-trigger'), node('x', 'no-such-node'), node('j', 'jsonata-transform', { expression: 42 }), node('loose', 'pipeline-output')],
      connections: [link('in', 'event', 'j', 'input'), link('j', 'output', 'ghost', 'value')],
    };
    const r = await a.copilot.validatePipeline({ definition: broken });
    expect(r.valid).toBe(false);
    const codes = r.errors.map((e) => `${e.node_id}:${e.code}`);
    expect(codes).toContain('x:UNKNOWN_NODE_TYPE');
    expect(codes).toContain('j:INVALID_CONFIG');
    expect(codes.some((c) => c.endsWith(':DANGLING_CONNECTION'))).toBe(true);
    expect((await a.copilot.validatePipeline({ definition: { nodes: [], connections: [] } })).errors.map((e) => e.code)).toContain('EMPTY_PIPELINE');
  });

  it('warns about patient data sent to an external LLM, FHIR written unvalidated, and writes without retry', async () => {
    const a = await orgCaller(rt, 'org-copilot-risks');
    const r = await a.copilot.validatePipeline({ definition: risky });
    expect(r.warnings.map((w) => `${w.node_id}:${w.code}`)).toEqual(
      expect.arrayContaining(['ask:PHI_TO_EXTERNAL_LLM', 'write:FHIR_NOT_VALIDATED', 'write:WRITE_WITHOUT_RETRY']),
    );

    // de-identified first, validated first, retried: the warnings go
    const safer = {
      nodes: [
        ...risky.nodes.filter((n) => n.id !== 'write'),
        node('deid', 'fhir-deidentify'),
        node('check', 'fhir-validate', { expect: 'bundle' }),
        node('write', 'fhir-write', { connector: 'hapi', operation: 'transaction' }, { settings: { retry: { max_attempts: 3 } } }),
      ],
      connections: [
        link('in', 'message', 'parse', 'text'),
        link('parse', 'message', 'to_fhir', 'message'),
        link('to_fhir', 'bundle', 'check', 'resource'),
        link('check', 'valid', 'write', 'resource'),
        link('to_fhir', 'bundle', 'deid', 'resource'),
        link('deid', 'resource', 'ask', 'input'),
        link('ask', 'text', 'out', 'value'),
      ],
    };
    const s = await a.copilot.validatePipeline({ definition: safer });
    expect(s.warnings.map((w) => w.code)).not.toContain('PHI_TO_EXTERNAL_LLM');
    expect(s.warnings.map((w) => w.code)).not.toContain('FHIR_NOT_VALIDATED');
    expect(s.warnings.map((w) => w.code)).not.toContain('WRITE_WITHOUT_RETRY');

    const p = await a.pipelines.create({ name: 'risky', description: '', definition: risky });
    expect((await a.copilot.analyze({ pipeline_id: p.id })).warnings.map((w) => w.code)).toContain('PHI_TO_EXTERNAL_LLM');
  });

  it('proposes an agent from a description, and creates it when asked', async () => {
    const a = await orgCaller(rt, 'org-copilot-agent');
    const r = await a.copilot.agent({ description: 'An agent that reviews denied 837 claims and looks up the ICD-10 codes', create: false });
    expect(r.agent).toMatchObject({ id: null, agent_type: 'claims', tools: ['terminology_lookup'] });
    const fhir = await a.copilot.agent({ description: 'Answer questions about a patient from our FHIR server', create: true });
    expect(fhir.agent.tools).toContain('fhir_search');
    expect(fhir.problems.map((p) => p.message).join()).toContain('fhir_search');
    expect(await a.agents.get({ id: fhir.agent.id! })).toMatchObject({ agent_type: 'fhir', status: 'active' });
  });

  it("reports an agent's usage, failures and tool calls, with recommendations", async () => {
    const a = await orgCaller(rt, 'org-copilot-insights');
    const agent = await a.agents.create({ template_id: 'a9e17000-0000-4000-8000-000000000005' });
    const empty = await a.copilot.insights({ agentId: agent.id });
    expect(empty.usage.turns).toBe(0);
    expect(empty.recommendations.map((r) => r.kind)).toContain('no-usage');
    await a.agents.chat({ id: agent.id, message: 'hl7v2_parse this: MSH|^~\\&|A|B|C|D|20240101||ADT^A01|1|P|2.5\rPID|1||123||Doe^Jane', stream: false });
    await a.agents.chat({ id: agent.id, message: 'Summarize: patient stable. Vitals normal.', stream: false });
    const r = await a.copilot.insights({ agentId: agent.id });
    expect(r.usage).toMatchObject({ turns: 2, failed_turns: 0, conversations: 2, by_source: { chat: 2 }, tool_calls: 1 });
    expect(r.tools).toEqual([{ tool: 'hl7v2_parse', calls: 1, failures: 0 }]);
    expect(r.usage.latency_ms.p50).not.toBeNull();
  });

  it('writes FHIR queries with real R4 search parameters', async () => {
    const a = await orgCaller(rt, 'org-copilot-fhir');
    const r = await a.copilot.fhirQueries({ description: 'Find patients named Smith born after 1980' });
    expect(r.queries).toEqual(['GET /Patient?family=smith&birthdate=ge1980-01-01']);
  });

  it('designs a pipeline from a description, validates it and dry-runs it on a sample without writing', async () => {
    const a = await orgCaller(rt, 'org-copilot-generate');
    await a.connectors.create({ name: 'hapi', type: 'fhir', endpoint: 'https://fhir.example.org/r4', config: { auth: 'none' }, credentials: {} });
    const adt = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');
    const r = await a.copilot.generate({
      description: 'Receive ADT messages over MLLP, convert them to FHIR, validate and write them to our FHIR server "hapi"',
      sample_input: adt,
    });
    expect(r.pipeline.nodes.map((n) => n.type)).toEqual(expect.arrayContaining(['mllp-listener-trigger', 'hl7v2-to-fhir', 'fhir-validate', 'fhir-write']));
    expect(r.pipeline.nodes.find((n) => n.type === 'fhir-write')?.config).toMatchObject({ connector: 'hapi' });
    expect(r.validation.valid).toBe(true);
    expect(r.dry_run).toMatchObject({ status: 'completed' });
    expect(r.reasoning.length).toBeGreaterThan(0);
    // a dry run stores no execution
    expect((await a.executions.list({ limit: 20, offset: 0 })).executions).toEqual([]);
  });

  it("configures a node from a description: a schedule, a FHIR query on the organization's connector", async () => {
    const a = await orgCaller(rt, 'org-copilot-configure');
    await a.connectors.create({ name: 'hapi', type: 'fhir', endpoint: 'https://fhir.example.org/r4', config: { auth: 'none' }, credentials: {} });
    const cron = await a.copilot.configureNode({ node_type: 'schedule-trigger', description: 'every day at 6am' });
    expect(cron).toMatchObject({ valid: true, config: { cron: '0 6 * * *' } });
    const none = await a.copilot.configureNode({ node_type: 'schedule-trigger', description: 'whenever you like' });
    expect(none.missing[0]).toMatch(/^schedule:/);
    const query = await a.copilot.configureNode({ node_type: 'fhir-query', description: 'Read the Observation resources from our FHIR server' });
    expect(query).toMatchObject({ valid: true, config: { connector: 'hapi', query: expect.stringMatching(/^Observation\?/) } });
    await expect(a.copilot.configureNode({ node_type: 'no-such-node', description: 'anything at all' })).rejects.toMatchObject({
      cause: { code: 'NODE_TYPE_NOT_FOUND' },
    });
  });

  it('auto-configures the nodes a pipeline left unconfigured, and saves them as a version when asked', async () => {
    const a = await orgCaller(rt, 'org-copilot-auto');
    await a.connectors.create({ name: 'hapi', type: 'fhir', endpoint: 'https://fhir.example.org/r4', config: { auth: 'none' }, credentials: {} });
    const definition = {
      nodes: [
        { id: 'when', type: 'schedule-trigger', config: {}, position: { x: 0, y: 0 } },
        { id: 'read', type: 'fhir-query', config: {}, position: { x: 1, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: {}, position: { x: 2, y: 0 } },
      ],
      connections: [
        { source: 'when', source_port: 'event', target: 'read', target_port: 'params' },
        { source: 'read', source_port: 'bundle', target: 'out', target_port: 'value' },
      ],
    };
    const p = await a.pipelines.create({
      name: 'Nightly patients',
      description: 'Every night at 2am read the Patient resources from our FHIR server',
      definition,
    });
    const r = await a.copilot.autoConfigure({ pipeline_id: p.id, apply: true });
    expect(r.changes.map((c) => c.node_id).sort()).toEqual(['read', 'when']);
    expect(r.definition.nodes.find((n) => n.id === 'when')?.config).toMatchObject({ cron: '0 2 * * *' });
    expect(r.definition.nodes.find((n) => n.id === 'read')?.config).toMatchObject({ connector: 'hapi', query: expect.stringMatching(/^Patient/) });
    expect(r.validation.valid).toBe(true);
    expect(r.saved_version).toBe(2);
    expect((await a.pipelines.get({ id: p.id })).version).toBe(2);
  });

  it('modifies a pipeline from a request, and saves only a valid result', async () => {
    const a = await orgCaller(rt, 'org-copilot-modify');
    const p = await a.pipelines.create({ name: 'summaries', description: '', definition: risky });
    const m = await a.copilot.modify({ pipeline_id: p.id, request: 'add de-identification before the LLM step', apply: true });
    expect(m.changes[0]).toMatch(/^added deidentify \(FHIR de-identify\) between to_fhir and ask/);
    expect(m.diff).toMatchObject({ added: ['deidentify'], removed: [], rewired: expect.arrayContaining(['to_fhir', 'ask']) });
    expect(m.validation.valid).toBe(true);
    expect(m.validation.warnings.map((w) => w.code)).not.toContain('PHI_TO_EXTERNAL_LLM');
    expect(m.saved_version).toBe(2);
    // what it cannot do is said in words, and nothing is saved
    const removed = await a.copilot.modify({ pipeline_id: p.id, request: 'remove the trigger', apply: true });
    expect(removed.changes).toEqual([]);
    expect(removed.unresolved[0]).toMatch(/starts the pipeline: replace it/);
    expect(removed.saved_version).toBeNull();
    expect((await a.pipelines.get({ id: p.id })).version).toBe(2);
  });

  it('chats: designs a pipeline, then changes it and reviews it when it is in context', async () => {
    const a = await orgCaller(rt, 'org-copilot-chat');
    const designed = await a.copilot.chat({ message: 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles', stream: false });
    expect(designed.pipeline?.nodes.map((n) => n.type)).toEqual(expect.arrayContaining(['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate']));
    expect(designed.validation?.valid).toBe(true);
    expect(designed.reasoning_steps.length).toBeGreaterThan(1);
    expect(designed.response).toMatch(/It is valid/);

    const p = await a.pipelines.create({ name: 'risky', description: '', definition: risky });
    const review = await a.copilot.chat({ message: 'Is it safe? Check it', stream: false, context: { pipeline_id: p.id } });
    expect(review.pipeline).toBeNull();
    expect(review.response).toContain('ask: Patient data reaches the external model openai/gpt-4o-mini');
    const change = await a.copilot.chat({ message: 'add de-identification before the LLM step', stream: false, context: { pipeline_id: p.id } });
    expect(change.pipeline?.nodes.map((n) => n.type)).toContain('fhir-deidentify');
    expect((await a.pipelines.get({ id: p.id })).version).toBe(1); // a proposal: nothing saved
  });

  it('chats about the pipeline as the editor shows it: the definition in context, unsaved edits included, rather than the saved version', async () => {
    const a = await orgCaller(rt, 'org-copilot-chat-canvas');
    const p = await a.pipelines.create({ name: 'risky', description: '', definition: risky });
    // the canvas: the external model's node taken out (unsaved)
    const canvas = { nodes: risky.nodes.filter((n) => n.id !== 'ask'), connections: risky.connections.filter((c) => c.source !== 'ask' && c.target !== 'ask') };
    const review = await a.copilot.chat({ message: 'Why does this fail?', stream: false, context: { pipeline_id: p.id, definition: canvas } });
    expect(review.pipeline).toBeNull();
    expect(review.reasoning_steps[0]?.content).toContain('unsaved edits included');
    expect(review.response).not.toContain('openai/gpt-4o-mini');
    const change = await a.copilot.chat({ message: 'retry writes 3 times', stream: false, context: { definition: canvas } });
    expect(change.pipeline?.nodes.map((n) => n.id)).not.toContain('ask');
    expect(change.reasoning_steps.length).toBeGreaterThan(1);
    expect(change.validation?.warnings.map((w) => w.code)).not.toContain('WRITE_WITHOUT_RETRY');
  });

  it('suggests concrete changes with ids, applies one as a new version, and refuses a stale or repeated apply', async () => {
    const a = await orgCaller(rt, 'org-copilot-suggest');
    const p = await a.pipelines.create({ name: 'risky', description: '', definition: risky });
    const s = await a.copilot.suggestions({ pipeline_id: p.id });
    expect(s.suggestions.map((x) => x.kind).sort()).toEqual(['FHIR_NOT_VALIDATED', 'PHI_TO_EXTERNAL_LLM', 'WRITE_WITHOUT_RETRY']);
    const deid = s.suggestions.find((x) => x.kind === 'PHI_TO_EXTERNAL_LLM')!;
    expect(deid.change).toBe('add de-identification before ask');
    const applied = await a.copilot.applySuggestion({ id: deid.id });
    expect(applied).toMatchObject({ pipeline_version: 2, suggestion: { status: 'applied', applied_version: 2 }, validation: { valid: true } });
    const saved = await a.pipelines.get({ id: p.id });
    expect(saved.definition.nodes.map((n) => n.type)).toContain('fhir-deidentify');
    const code = (e: unknown) => (e as { cause?: { code?: string } }).cause?.code;
    expect(await a.copilot.applySuggestion({ id: deid.id }).catch(code)).toBe('SUGGESTION_APPLIED');
    const other = s.suggestions.find((x) => x.kind === 'FHIR_NOT_VALIDATED')!;
    expect(await a.copilot.applySuggestion({ id: other.id }).catch(code)).toBe('SUGGESTION_STALE');
    expect(await a.copilot.applySuggestion({ id: '00000000-0000-4000-8000-000000000000' }).catch(code)).toBe('SUGGESTION_NOT_FOUND');
  });

  it("refines a pipeline: every suggested change at once, valid, and the copilot's warnings answered", async () => {
    const a = await orgCaller(rt, 'org-copilot-refine');
    const r = await a.copilot.refine({ definition: risky });
    expect(r.validation.valid).toBe(true);
    expect(r.changes.length).toBe(3);
    expect(r.validation.warnings.map((w) => w.code)).not.toContain('PHI_TO_EXTERNAL_LLM');
    expect(r.validation.warnings.map((w) => w.code)).not.toContain('FHIR_NOT_VALIDATED');
    expect(r.validation.warnings.map((w) => w.code)).not.toContain('WRITE_WITHOUT_RETRY');
  });

  it('documents a pipeline in Markdown: trigger, steps in order, writes, findings; no secret shown', async () => {
    const a = await orgCaller(rt, 'org-copilot-docs');
    const p = await a.pipelines.create({ name: 'ADT to FHIR', description: 'Feeds the FHIR server.', definition: risky });
    const { markdown } = await a.copilot.docs({ pipeline_id: p.id });
    expect(markdown.startsWith('# ADT to FHIR\n\nFeeds the FHIR server.')).toBe(true);
    const steps = markdown.split('## Steps')[1]!.split('##')[0]!;
    expect(steps.indexOf('**parse**')).toBeLessThan(steps.indexOf('**to_fhir**'));
    expect(markdown).toContain('**write** (FHIR write) through the connector "hapi"; no retry');
    expect(markdown).toContain('Warning on **ask**: Patient data reaches the external model');
  });
});
