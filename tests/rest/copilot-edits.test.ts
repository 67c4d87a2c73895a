import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';

const ADT = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/hl7v2/messages/ADT-A01-01.hl7'), 'utf8');

/** start (message: text) → parse → to_fhir → out */
const adt = {
  nodes: [
    { id: 'start', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'parse', type: 'hl7v2-parse', config: {}, position: { x: 260, y: 0 } },
    { id: 'to_fhir', type: 'hl7v2-to-fhir', config: {}, position: { x: 520, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'result' }, position: { x: 780, y: 0 } },
  ],
  connections: [
    { source: 'start', source_port: 'message', target: 'parse', target_port: 'text' },
    { source: 'parse', source_port: 'message', target: 'to_fhir', target_port: 'message' },
    { source: 'to_fhir', source_port: 'bundle', target: 'out', target_port: 'value' },
  ],
};

/** … → to_fhir → summarize (external model) → write (FHIR, no retry) */
const risky = {
  nodes: [
    ...adt.nodes.slice(0, 3),
    { id: 'sum', type: 'summarize', config: { model: 'openai/gpt-4o-mini' }, position: { x: 780, y: 0 } },
    { id: 'write', type: 'fhir-write', config: { connector: 'hapi', operation: 'transaction' }, position: { x: 780, y: 150 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'summary' }, position: { x: 1040, y: 0 } },
  ],
  connections: [
    ...adt.connections.slice(0, 2),
    { source: 'to_fhir', source_port: 'bundle', target: 'sum', target_port: 'text' },
    { source: 'to_fhir', source_port: 'bundle', target: 'write', target_port: 'resource' },
    { source: 'sum', source_port: 'summary', target: 'out', target_port: 'value' },
  ],
};

const types = (d: { nodes: { type: string }[] }) => d.nodes.map((n) => n.type);
const links = (d: { connections: { source: string; target: string }[] }) => d.connections.map((c) => `${c.source}>${c.target}`);

describe.each(inject('targets'))('copilot edits over REST on $name', (target) => {
  let api: Client;
  beforeAll(async () => {
    const org = await orgWithKey(target.url, `copilot-edits-${target.name}-${Date.now()}@example.org`);
    api = client(target.url, org);
  });

  it('modifies a definition: the step between two named ones, the diff, and a dry run on the sample; nothing saved', async () => {
    const r = await api.post('/api/copilot/modify/pipeline', {
      definition: adt,
      request: 'Validate the FHIR bundle between to_fhir and out.',
      sample_input: ADT,
    });
    expect(r.status, r.text).toBe(200);
    expect(types(r.body.definition)).toContain('fhir-validate');
    const added = r.body.diff.added[0];
    expect(links(r.body.definition)).toEqual(expect.arrayContaining([`to_fhir>${added}`, `${added}>out`]));
    expect(links(r.body.definition)).not.toContain('to_fhir>out');
    expect(r.body.diff).toMatchObject({ removed: [], rewired: expect.arrayContaining(['to_fhir', 'out']) });
    expect(r.body).toMatchObject({ validation: { valid: true }, dry_run: { status: 'completed' }, saved_version: null, planner: 'offline', unresolved: [] });
    expect(r.body.changes.join(' ')).toMatch(/added .* between to_fhir and out/);
    expectError(await api.post('/api/copilot/modify/pipeline', { definition: adt, request: 'Validate the bundle', apply: true }), 400, 'VALIDATION_FAILED');
  });

  it('modifies a saved pipeline by id: several changes in one request, saved as the next version', async () => {
    const saved = await api.post('/api/pipelines', { name: 'ADT to FHIR', definition: adt });
    expect(saved.status, saved.text).toBe(201);
    const r = await api.post('/api/copilot/modify/pipeline', {
      pipeline_id: saved.body.id,
      request: 'Start this from a webhook instead, and once the message is parsed, strip the patient identifiers out of it.',
      apply: true,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ validation: { valid: true }, saved_version: 2, unresolved: [] });
    const now = (await api.get(`/api/pipelines/${saved.body.id}`)).body;
    expect(now.version).toBe(2);
    expect(types(now.definition)).toEqual(expect.arrayContaining(['webhook-trigger', 'hl7v2-deidentify', 'hl7v2-parse', 'hl7v2-to-fhir']));
    expect(types(now.definition)).not.toContain('manual-trigger');
    expect(links(now.definition)).toContain('parse>deidentify');
  });

  it('answers a request it cannot do in words, and saves nothing', async () => {
    const saved = await api.post('/api/pipelines', { name: 'ADT to FHIR', definition: adt });
    const r = await api.post('/api/copilot/modify/pipeline', { pipeline_id: saved.body.id, request: 'Remove the parse step.', apply: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.changes).toEqual([]);
    expect(r.body.unresolved[0]).toMatch(/removing parse .* would leave to_fhir without an input it can take/);
    expect(r.body.saved_version).toBeNull();
    expect(r.body.diff).toMatchObject({ added: [], removed: [], rewired: [], changed: [] });
    const now = (await api.get(`/api/pipelines/${saved.body.id}`)).body;
    expect(now.version).toBe(1);
    expect(links(now.definition)).toEqual(links(adt));
    const inline = await api.post('/api/copilot/modify/pipeline', { definition: adt, request: 'Email the result to the attending physician.' });
    expect(inline.status, inline.text).toBe(200);
    expect(inline.body.changes).toEqual([]);
    expect(inline.body.unresolved.join(' ')).toMatch(/email/i);
  });

  it('refines a definition and a saved pipeline with the same planner: de-identification, validation and retries', async () => {
    const inline = await api.post('/api/copilot/refine/pipeline', { definition: risky });
    expect(inline.status, inline.text).toBe(200);
    expect(inline.body.validation.valid).toBe(true);
    expect(types(inline.body.definition)).toEqual(expect.arrayContaining(['fhir-deidentify', 'fhir-validate']));
    expect(inline.body.definition.nodes.find((n: { id: string }) => n.id === 'write').settings.retry.max_attempts).toBe(3);
    expect(inline.body.saved_version).toBeNull();
    const saved = await api.post('/api/pipelines', { name: 'summaries', definition: risky });
    const r = await api.post('/api/copilot/refine/pipeline', { pipeline_id: saved.body.id, apply: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.saved_version).toBe(2);
    expect(types((await api.get(`/api/pipelines/${saved.body.id}`)).body.definition)).toContain('fhir-deidentify');
    // nothing left to refine: nothing saved
    const again = await api.post('/api/copilot/refine/pipeline', { pipeline_id: saved.body.id, apply: true });
    expect(again.body).toMatchObject({ changes: [], saved_version: null });
    expect((await api.get(`/api/pipelines/${saved.body.id}`)).body.version).toBe(2);
  });

  it('applies a suggestion by the same planner: validation before the FHIR write, saved as the next version', async () => {
    const saved = await api.post('/api/pipelines', { name: 'summaries', definition: risky });
    const s = await api.post('/api/copilot/suggestions', { pipeline_id: saved.body.id });
    const validate = s.body.suggestions.find((x: { kind: string }) => x.kind === 'FHIR_NOT_VALIDATED');
    expect(validate).toMatchObject({ change: 'add validation before write' });
    const applied = await api.post(`/api/copilot/suggestions/${validate.id}/apply`);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ pipeline_version: 2, validation: { valid: true } });
    const def = (await api.get(`/api/pipelines/${saved.body.id}`)).body.definition;
    const v = def.nodes.find((n: { type: string }) => n.type === 'fhir-validate').id;
    expect(links(def)).toEqual(expect.arrayContaining([`to_fhir>${v}`, `${v}>write`]));
  });

  it('explains a pipeline in the chat: what it does with a message, node by node, and why it is valid', async () => {
    const saved = await api.post('/api/pipelines', { name: 'ADT to FHIR', definition: adt });
    const what = await api.post('/api/copilot/chat', {
      message: 'What does this pipeline do with a message?',
      stream: false,
      context: { pipeline_id: saved.body.id },
    });
    expect(what.status, what.text).toBe(200);
    expect(what.body.pipeline).toBeNull();
    expect(what.body.response).toMatch(/^It starts at \*\*start\*\* \(Manual trigger\)/);
    expect(what.body.response).toContain('**parse** (HL7 v2 parse) takes HL7 v2 (text) from start');
    const why = await api.post('/api/copilot/chat', { message: 'Why is it valid?', stream: false, context: { pipeline_id: saved.body.id } });
    expect(why.body.response).toMatch(/^It is valid, because/);
    expect(why.body.response).toContain('parse.message (hl7v2-message) → to_fhir.message (hl7v2-message)');
    const edit = await api.post('/api/copilot/chat', { message: 'Add a FHIR write after to_fhir', stream: false, context: { pipeline_id: saved.body.id } });
    expect(edit.status, edit.text).toBe(200);
    expect(types(edit.body.pipeline)).toContain('fhir-write');
    expect(edit.body.validation.valid).toBe(true);
    expect((await api.get(`/api/pipelines/${saved.body.id}`)).body.version).toBe(1);
  });
});
