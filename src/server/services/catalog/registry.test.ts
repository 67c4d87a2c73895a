import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodePorts } from '@/features/editor/ports';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';
import { validatePipelineDefinition } from '@/server/services/pipelines/validate-definition';
import { paletteGroups } from '@/features/editor/palette-groups';
import { openApiDocument } from '@/server/api/openapi';
import { editPipeline } from '@/server/copilot/edit';
import { planPipeline } from '@/server/copilot/planner';
import { getCatalogEntry, listCatalog, searchCatalog } from './catalog';

/**
 * A node type added the way a new one is: its descriptor and its implementation (its own files), one line in
 * src/engine/nodes/registry.ts and its entry in implementations.ts — here appended to both lists by vi.mock, nothing
 * else touched. The catalog, the editor's palette and ports, validation, the OpenAPI document, the copilot's planner
 * (new pipelines and edits), header masking and execution must all know it.
 */
const { notify, notifyNode } = await vi.hoisted(async () => {
  const { z } = await import('zod');
  const { describeNode } = await import('@/engine/node-descriptor');
  const { implementNode } = await import('@/engine/node-type');
  const notify = describeNode({
    id: 'throwaway-notify',
    name: 'Throwaway notify',
    category: 'output',
    description: 'Tells a ward system that a message arrived (a node type that exists only in this test).',
    version: '0.1.0',
    keywords: ['throwaway', 'pager'],
    side_effect: 'write',
    documentation: 'Sends the text it receives to the ward pager at `url`, with `headers`. In a test run it sends nothing.',
    config: z.object({
      url: z.url().describe('The pager endpoint'),
      headers: z.record(z.string(), z.string()).default({}).describe('Request headers'),
    }),
    example: { url: 'https://pager.example.org/ward-7' },
    ports: () => ({ inputs: [{ name: 'text', type: 'text' }], outputs: [{ name: 'sent', type: 'json' }] }),
    errors: { PAGER_DOWN: 'the pager did not answer' },
    credentialHeaders: 'headers',
    // what the copilot's planner needs: where it goes in a flow, the words that ask for it, its config from a request
    plan: {
      role: 'sink',
      stage: 'sink',
      input: 'text',
      output: 'sent',
      cue: /\bpage\w* the ward\b|\bward \d+ pager\b/,
      // the words of an edit: asking for one ("bleep the on-call doctor"), and naming the one a pipeline has
      edit: { cue: /\bbleep\w*/, names: /\bbleeper\b/ },
      configure: (a) => {
        const ward = a.lower.match(/\bward (\d+)/)?.[1];
        if (ward) a.config.url = `https://pager.example.org/ward-${ward}`;
        else a.missing.push('url: the request names no ward');
      },
    },
  });
  const notifyNode = implementNode(notify, {
    async execute(ctx, inputs, config) {
      return { outputs: { sent: { url: config.url, text: inputs.text } }, simulated: ctx.testMode };
    },
  });
  return { notify, notifyNode };
});

vi.mock('@/engine/nodes/registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/engine/nodes/registry')>();
  return { ...real, NODE_REGISTRY: [...real.NODE_REGISTRY, notify] };
});
vi.mock('@/engine/nodes/implementations', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/engine/nodes/implementations')>();
  return { ...real, IMPLEMENTATIONS: { ...real.IMPLEMENTATIONS, [notifyNode.id]: notifyNode } };
});

const TOKEN = 'Bearer pager_0123456789abcdef';

/** in (manual-trigger, a text field) ──▶ page (throwaway-notify) ──▶ out */
const definition = (config: Record<string, unknown>) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { message: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'page', type: 'throwaway-notify', config, position: { x: 1, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'paged' }, position: { x: 2, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'message', target: 'page', target_port: 'text' },
    { source: 'page', source_port: 'sent', target: 'out', target_port: 'value' },
  ],
});

describe('a node type added with its own files and one registry line', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt?.database.close());

  it('is in the catalog: listed last, found by its keywords, with its ports, errors and documentation', () => {
    expect(listCatalog().nodes.at(-1)?.id).toBe('throwaway-notify');
    expect(listCatalog('output').nodes.map((n) => n.id)).toContain('throwaway-notify');
    expect(searchCatalog('pager').nodes.map((n) => n.id)).toEqual(['throwaway-notify']);
    const entry = getCatalogEntry('throwaway-notify');
    expect(entry.inputs.map((p) => `${p.name}:${p.type}`)).toEqual(['text:text']);
    expect(entry.errors.map((e) => e.code)).toContain('PAGER_DOWN');
    expect(entry.documentation).toContain('ward pager');
    expect(nodePorts(entry, {}).outputs.map((p) => p.name)).toEqual(['sent']);
  });

  it('is checked by validation: its config and its ports', () => {
    expect(validatePipelineDefinition(definition({ url: 'https://pager.example.org/ward-7' }))).toMatchObject({ valid: true, errors: [] });
    const wrong = validatePipelineDefinition(definition({ url: 'not a url' }));
    expect(wrong.errors).toContainEqual(expect.objectContaining({ node_id: 'page', code: 'INVALID_CONFIG' }));
  });

  it("is saved with its credential headers masked, warned about by the copilot's checks, and runs in an execution", async () => {
    const admin = await orgCaller(rt, 'org-throwaway-node');
    const config = { url: 'https://pager.example.org/ward-7', headers: { Authorization: TOKEN } };
    const created = await admin.pipelines.create({ name: 'pager', description: '', definition: definition(config) });
    expect(created.definition.nodes[1]!.config.headers).toEqual({ Authorization: '••••cdef' });
    const checked = await admin.copilot.validatePipeline({ definition: definition(config) });
    expect(checked.warnings).toContainEqual(expect.objectContaining({ node_id: 'page', code: 'CREDENTIAL_IN_NODE' }));
    const run = await admin.executions.execute({ pipeline_id: created.id, inputs: { message: 'bed 4 admitted' }, test_mode: true, async: false });
    expect(run).toMatchObject({ status: 'completed', outputs: { paged: { url: 'https://pager.example.org/ward-7', text: 'bed 4 admitted' } } });
  });

  it("is in the editor's palette and the OpenAPI document", () => {
    expect(paletteGroups(listCatalog().nodes, 'pager')).toEqual([{ category: 'output', entries: [expect.objectContaining({ id: 'throwaway-notify' })] }]);
    const doc = openApiDocument() as { paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }> };
    const nodeId = doc.paths['/node-catalog/{nodeId}']!.get.parameters.find((p) => p.name === 'nodeId');
    expect(nodeId?.schema.enum).toContain('throwaway-notify');
  });

  it('is proposed by the copilot when a request names its words: in a new pipeline, configured, and in an edit', async () => {
    const plan = planPipeline('Page the ward 7 pager with every admission note.');
    const page = plan.pipeline.nodes.find((n) => n.type === 'throwaway-notify');
    expect(page?.config).toMatchObject({ url: 'https://pager.example.org/ward-7' });
    expect(plan.pipeline.connections).toContainEqual(expect.objectContaining({ target: page!.id, target_port: 'text' }));
    expect(validatePipelineDefinition(plan.pipeline)).toMatchObject({ valid: true, errors: [] });

    const notes = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { note: 'text' } }, position: { x: 0, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: { key: 'note' }, position: { x: 1, y: 0 } },
      ],
      connections: [{ source: 'in', source_port: 'note', target: 'out', target_port: 'value' }],
    };
    const edited = await editPipeline(notes, 'Also page the ward 3 pager with the note.');
    const added = edited.definition.nodes.find((n) => n.type === 'throwaway-notify');
    expect(added?.config).toMatchObject({ url: 'https://pager.example.org/ward-3' });
    expect(validatePipelineDefinition(edited.definition)).toMatchObject({ valid: true });

    // an edit asks for it by its own edit words, which neither its name, its keywords nor its planner cue contain
    const bleeped = await editPipeline(notes, 'Also bleep ward 3 with the note.');
    expect(
      bleeped.definition.nodes.map((n) => n.type),
      JSON.stringify([bleeped.changes, bleeped.unresolved]),
    ).toContain('throwaway-notify');
    // and names the one the pipeline has by them
    const removed = await editPipeline(definition({ url: 'https://pager.example.org/ward-7' }), 'Remove the bleeper.');
    expect(removed.definition.nodes.map((n) => n.type)).toEqual(['manual-trigger', 'pipeline-output']);
  });
});
