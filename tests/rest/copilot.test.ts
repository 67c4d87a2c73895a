import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey, type Org } from '../support/accounts';
import { eventText, postRaw, readEvents } from '../support/agents';
import { client, expectError, expectRateHeaders, type Client } from '../support/client';

const ADT = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');

describe.each(inject('targets'))('copilot over REST on $name', (target) => {
  // an organization of its own: the copilot's 30 a minute are counted per key
  let api: Client;
  let org: Org;
  beforeAll(async () => {
    org = await orgWithKey(target.url, `copilot-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
  });

  it('validates a definition: engine errors on their nodes, copilot warnings', async () => {
    const definition = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } } },
        { id: 'parse', type: 'hl7v2-parse', config: {} },
        { id: 'to_fhir', type: 'hl7v2-to-fhir', config: {} },
        { id: 'sum', type: 'summarize', config: { model: 'anthropic/claude-sonnet-4-0' } },
        { id: 'nope', type: 'not-a-node', config: {} },
        { id: 'out', type: 'pipeline-output', config: {} },
      ],
      connections: [
        { source: 'in', source_port: 'message', target: 'parse', target_port: 'text' },
        { source: 'parse', source_port: 'message', target: 'to_fhir', target_port: 'message' },
        { source: 'to_fhir', source_port: 'bundle', target: 'sum', target_port: 'text' },
        { source: 'sum', source_port: 'summary', target: 'out', target_port: 'value' },
      ],
    };
    const r = await api.post('/api/copilot/validate/pipeline', { definition });
    expect(r.status).toBe(200);
    expectRateHeaders(r);
    expect(r.headers.get('x-ratelimit-limit')).toBe('30');
    expect(r.body.valid).toBe(false);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ node_id: 'nope', code: 'UNKNOWN_NODE_TYPE' }));
    expect(r.body.warnings).toContainEqual(expect.objectContaining({ node_id: 'sum', code: 'PHI_TO_EXTERNAL_LLM' }));
  });

  it('designs a pipeline that validates, dry-runs on the sample, and saves and runs as proposed', async () => {
    const r = await api.post('/api/copilot/generate/pipeline', {
      description: 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles',
      sample_input: ADT,
    });
    expect(r.status, r.text).toBe(200);
    const types = r.body.pipeline.nodes.map((n: { type: string }) => n.type);
    expect(types).toEqual(expect.arrayContaining(['hl7v2-parse', 'hl7v2-to-fhir', 'fhir-validate']));
    expect(r.body.validation).toMatchObject({ valid: true, errors: [] });
    expect(r.body.dry_run).toMatchObject({ status: 'completed' });
    const { name, nodes, connections } = r.body.pipeline;
    const saved = await api.post('/api/pipelines', { name, definition: { nodes, connections } });
    expect(saved.status, saved.text).toBe(201);
    const trigger = nodes.find((n: { type: string }) => n.type === 'manual-trigger');
    const field = Object.keys(trigger?.config?.fields ?? {})[0] ?? 'input';
    const run = await api.post('/api/execute', { pipeline_id: saved.body.id, inputs: { [field]: ADT }, test_mode: true });
    expect(run.body.status, run.text).toBe('completed');
    expectError(await api.post('/api/copilot/generate/pipeline', { description: '' }), 400, 'VALIDATION_FAILED');
  });

  it('configures a node, and the unconfigured nodes of a pipeline', async () => {
    const node = await api.post('/api/copilot/configure/node', { node_type: 'schedule-trigger', description: 'every 15 minutes' });
    expect(node.status, node.text).toBe(200);
    expect(node.body).toMatchObject({ valid: true, config: { cron: '*/15 * * * *' } });
    expectError(await api.post('/api/copilot/configure/node', { node_type: 'nope', description: 'every 15 minutes' }), 404, 'NODE_TYPE_NOT_FOUND');
    const definition = {
      nodes: [
        { id: 'when', type: 'schedule-trigger', config: {} },
        { id: 'out', type: 'pipeline-output', config: {} },
      ],
      connections: [{ source: 'when', source_port: 'event', target: 'out', target_port: 'value' }],
    };
    const auto = await api.post('/api/copilot/auto-configure/pipeline', { definition, description: 'every day at 6' });
    expect(auto.status, auto.text).toBe(200);
    expect(auto.body).toMatchObject({ changes: [{ node_id: 'when' }], validation: { valid: true }, saved_version: null });
    expectError(await api.post('/api/copilot/auto-configure/pipeline', { definition, apply: true }), 400, 'VALIDATION_FAILED');
  });

  it('modifies a saved pipeline from a request and saves it as the next version', async () => {
    const made = await api.post('/api/copilot/generate/pipeline', { description: 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles' });
    const { name, nodes, connections } = made.body.pipeline;
    const saved = await api.post('/api/pipelines', { name, definition: { nodes, connections } });
    const m = await api.post('/api/copilot/modify/pipeline', {
      pipeline_id: saved.body.id,
      request: 'add de-identification after the parse step',
      apply: true,
    });
    expect(m.status, m.text).toBe(200);
    expect(m.body.definition.nodes.map((n: { type: string }) => n.type)).toContain('hl7v2-deidentify');
    expect(m.body).toMatchObject({ validation: { valid: true }, saved_version: 2 });
    expectError(
      await api.post('/api/copilot/modify/pipeline', { pipeline_id: '00000000-0000-4000-8000-000000000000', request: 'remove the parse step' }),
      404,
      'PIPELINE_NOT_FOUND',
    );
  });

  it('chats over Server-Sent Events: its steps, then the pipeline, its validation, the dry run and the answer', async () => {
    const res = await postRaw(target.url, org, '/api/copilot/chat', {
      message: 'Parse HL7 ADT messages, convert them to FHIR R4 and validate the bundles',
      stream: true,
      sample_input: ADT,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    const { events, text } = await readEvents(res.body!);
    expect(text).toBe(events.map(eventText).join(''));
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('thinking');
    expect(names.slice(names.indexOf('pipeline'))).toEqual(['pipeline', 'validation', 'dry_run', 'message', 'done']);
    expect(events.find((e) => e.event === 'validation')!.data).toMatchObject({ valid: true });
    expect(events.find((e) => e.event === 'dry_run')!.data).toMatchObject({ status: 'completed' });
    const missing = await postRaw(target.url, org, '/api/copilot/chat', {
      message: 'check it',
      stream: true,
      context: { pipeline_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('PIPELINE_NOT_FOUND');
  });

  it('suggests changes with ids and applies one as the next version', async () => {
    const definition = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { text: 'text' } } },
        { id: 'sum', type: 'summarize', config: { model: 'openai/gpt-4o-mini' } },
        { id: 'parse', type: 'hl7v2-parse', config: {} },
        { id: 'out', type: 'pipeline-output', config: {} },
      ],
      connections: [
        { source: 'in', source_port: 'text', target: 'parse', target_port: 'text' },
        { source: 'parse', source_port: 'message', target: 'sum', target_port: 'text' },
        { source: 'sum', source_port: 'summary', target: 'out', target_port: 'value' },
      ],
    };
    const saved = await api.post('/api/pipelines', { name: 'summaries', definition });
    const s = await api.post('/api/copilot/suggestions', { pipeline_id: saved.body.id });
    expect(s.status, s.text).toBe(200);
    const deid = s.body.suggestions.find((x: { kind: string }) => x.kind === 'PHI_TO_EXTERNAL_LLM');
    expect(deid).toMatchObject({ change: 'add de-identification before sum', status: 'open', pipeline_version: 1 });
    const applied = await api.post(`/api/copilot/suggestions/${deid.id}/apply`);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ pipeline_version: 2, validation: { valid: true } });
    expect((await api.get(`/api/pipelines/${saved.body.id}`)).body.definition.nodes.map((n: { type: string }) => n.type)).toContain('hl7v2-deidentify');
    expectError(await api.post(`/api/copilot/suggestions/${deid.id}/apply`), 409, 'SUGGESTION_APPLIED');
    expectError(await client(target.url, target.orgB).post(`/api/copilot/suggestions/${deid.id}/apply`), 404, 'SUGGESTION_NOT_FOUND');
  });

  it('reads the HL7 v2 → FHIR mapping back from a sample message', async () => {
    const r = await api.post('/api/copilot/generate/hl7-mapping', { message: ADT });
    expect(r.status, r.text).toBe(200);
    expect(r.body.message_type).toBe('ADT^A01');
    expect(r.body.rules).toContainEqual({ hl7: 'PID-11.3', fhir: ['Patient.address[].city'], example: 'Ann Arbor' });
    expectError(await api.post('/api/copilot/generate/hl7-mapping', { message: 'not an hl7 message at all' }), 400, 'VALIDATION_FAILED');
  });

  it('says which planner answers', async () => {
    const r = await api.get('/api/copilot/health');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      planner: 'offline',
      limit_per_minute: 30,
      planners: [
        { id: 'offline', available: true },
        { id: 'llm', available: false },
      ],
    });
    expect(r.body.catalog.node_types).toBe((await api.get('/api/node-catalog')).body.total_count);
  });

  it('infers a JSON Schema from samples', async () => {
    const r = await api.post('/api/copilot/infer/schema', {
      samples: [
        { mrn: 'A1', potassium: 4.1 },
        { mrn: 'B2', potassium: 6 },
      ],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ fits: true, samples: 2, schema: { type: 'object', required: ['mrn', 'potassium'] } });
    expectError(await api.post('/api/copilot/infer/schema', { samples: [] }), 400, 'VALIDATION_FAILED');
  });

  it("answers FHIR search lines, agent proposals, analyses and insights; bad input in the spec's error shape", async () => {
    const q = await api.post('/api/copilot/generate/fhir-queries', { description: 'female patients with hypertension' });
    expect(q.status).toBe(200);
    expect(q.body.queries).toEqual(['GET /Patient?gender=female&_has:Condition:patient:code=http://snomed.info/sct|38341003']);
    expectError(await api.post('/api/copilot/generate/fhir-queries', { description: '' }), 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/copilot/generate/fhir-queries', {}), 400, 'VALIDATION_FAILED');

    const proposal = await api.post('/api/copilot/generate/agent', { description: 'Summarize discharge letters for the ward team', create: true });
    expect(proposal.status).toBe(200);
    expect(proposal.body.agent).toMatchObject({ agent_type: 'summarizer', id: expect.any(String) });
    const insights = await api.get(`/api/copilot/insights/${proposal.body.agent.id}`);
    expect(insights.status).toBe(200);
    expect(insights.body.usage.turns).toBe(0);
    expectError(await api.get('/api/copilot/insights/00000000-0000-4000-8000-000000000000'), 404, 'AGENT_NOT_FOUND');
    expectError(await client(target.url, target.orgB).get(`/api/copilot/insights/${proposal.body.agent.id}`), 404, 'AGENT_NOT_FOUND');

    const analysis = await api.post('/api/copilot/analyze', { agent_id: proposal.body.agent.id });
    expect(analysis.body).toMatchObject({ kind: 'agent', valid: true });
    expectError(await api.post('/api/copilot/analyze', {}), 400, 'VALIDATION_FAILED');
  });
});

describe('copilot limit', () => {
  const target = inject('targets')[0]!;

  it('allows 30 requests a minute per key, then 429 with Retry-After, while the rest of the API still answers', async () => {
    // a key of its own, so that no other test shares its budget
    const own = client(target.url, await orgWithKey(target.url, 'copilot-limit@example.org', ['read', 'write']));
    for (let i = 0; i < 30; i++) {
      const r = await own.post('/api/copilot/generate/fhir-queries', { description: 'patients named Roe' });
      expect(r.status, `request ${i + 1}`).toBe(200);
    }
    const refused = await own.post('/api/copilot/generate/fhir-queries', { description: 'patients named Roe' });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('30');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await own.get('/api/pipelines')).status).toBe(200);
  });
});

describe.each(inject('targets'))('copilot code generation over REST on $name', (target) => {
  const patients = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/synthea-10/Patient.000.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (l) => JSON.parse(l) as { id: string; birthDate: string; gender: string; name: { use?: string; given?: string[]; family?: string; prefix?: string[] }[] },
    );
  const bundle = { resourceType: 'Bundle', type: 'searchset', entry: patients.map((resource) => ({ resource })) };
  // an organization of its own: its requests are not counted against the other copilot tests' 30 a minute
  let api: Client;
  let org: Org;
  beforeAll(async () => {
    org = await orgWithKey(target.url, `copilot-code-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
  });

  it("writes code for the sample's real fields, runs it on the sample, and the node it hands back runs in a pipeline", async () => {
    const r = await api.post('/api/copilot/generate/code', { description: 'count patients by gender', sample_input: bundle });
    expect(r.status, r.text).toBe(200);
    expectRateHeaders(r);
    const counts: Record<string, number> = {};
    for (const p of patients) counts[p.gender] = (counts[p.gender] ?? 0) + 1;
    expect(r.body).toMatchObject({
      language: 'javascript',
      syntax: { ok: true },
      valid: true,
      planner: 'offline',
      fields: [{ asked: 'gender', path: 'gender' }],
      dry_run: { ok: true, output: counts },
    });
    expect(r.body.code).toContain('(input.entry ?? []).map((e) => e.resource)');
    expect(r.body.node).toEqual({ type: 'code', name: 'Code (JavaScript)', config: { source: r.body.code, timeout_ms: 1000 } });
    expect(r.body.explanation).toMatch(/gender/);

    const saved = await api.post('/api/pipelines', {
      name: 'genders',
      definition: {
        nodes: [
          { id: 'in', type: 'manual-trigger', config: { fields: { bundle: 'any' } } },
          { id: 'js', ...r.body.node },
          { id: 'out', type: 'pipeline-output', config: {} },
        ],
        connections: [
          { source: 'in', source_port: 'bundle', target: 'js', target_port: 'input' },
          { source: 'js', source_port: 'output', target: 'out', target_port: 'value' },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    const run = await api.post('/api/execute', { pipeline_id: saved.body.id, inputs: { bundle }, test_mode: true });
    expect(run.body).toMatchObject({ status: 'completed', outputs: { out: counts } });
  });

  it("lists each patient's name and age: HumanName joined, age from birthDate", async () => {
    const r = await api.post('/api/copilot/generate/code', { description: "list each patient's name and age", sample_input: bundle });
    expect(r.status, r.text).toBe(200);
    const first = patients[0]!;
    const n = first.name.find((x) => x.use === 'official') ?? first.name[0]!;
    expect(r.body.dry_run.ok).toBe(true);
    expect(r.body.dry_run.output).toHaveLength(patients.length);
    expect(r.body.dry_run.output[0]).toEqual({ name: [...(n.prefix ?? []), ...(n.given ?? []), n.family].join(' '), age: expect.any(Number) });
  });

  it('returns a proposal that fails on the sample with its error, not as fine', async () => {
    const broken = { resourceType: 'Bundle', type: 'searchset', entry: [{ resource: patients[0] }, null] };
    const r = await api.post('/api/copilot/generate/code', { description: "list each patient's name and age", sample_input: broken });
    expect(r.status, r.text).toBe(200);
    expect(r.body.syntax).toEqual({ ok: true });
    expect(r.body.valid).toBe(false);
    expect(r.body.dry_run).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', message: expect.stringMatching(/TypeError/) } });
  });

  it('answers 400 with what it understood and examples when it cannot read the request; 400 on a bad body; needs a key with the execute scope', async () => {
    const vague = await api.post('/api/copilot/generate/code', { description: 'make it better please', sample_input: bundle });
    expectError(vague, 400, 'REQUEST_NOT_UNDERSTOOD');
    const unclear = await api.post('/api/copilot/generate/code', { description: 'sort them by shoe size', sample_input: patients });
    expect(unclear.status).toBe(400);
    expect(unclear.body.error.details).toMatchObject([
      {
        understood: ['No field matches "shoe size" in the sample: the records were not sorted.'],
        examples: expect.arrayContaining(["list each patient's name and age"]),
      },
    ]);

    expectError(await api.post('/api/copilot/generate/code', {}), 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/copilot/generate/code', { description: 'count patients by gender', language: 'python' }), 400, 'VALIDATION_FAILED');
    const anonymous = await fetch(`${target.url}/api/copilot/generate/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'count patients by gender' }),
    });
    expect(anonymous.status).toBe(401);
    const reader = client(target.url, await orgWithKey(target.url, `copilot-code-reader-${target.name}-${Date.now()}@example.org`, ['read']));
    expectError(await reader.post('/api/copilot/generate/code', { description: 'count patients by gender' }), 403, 'FORBIDDEN');
  });
});
