import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGraph } from '@/engine/graph';
import { getNodeType, NODE_TYPES } from '@/engine/nodes';
import { NODE_DESCRIPTORS } from '@/engine/nodes/descriptors';
import { validateDefinition } from '@/engine/validate';
import { nodePorts } from '@/features/editor/ports';
import { PipelineDefinition } from '@/shared/pipeline';
import { getCatalogEntry, listCatalog, searchCatalog } from './catalog';

/** Configs beyond each node's own example, so ports that follow the config are walked through several. */
const MORE_CONFIGS: Record<string, Record<string, unknown>[]> = {
  'manual-trigger': [{}, { fields: { message: 'text', patient: 'fhir-resource', bundle: 'fhir-bundle' } }],
  switch: [{ cases: [{ port: 'adt', expression: 'type = "ADT"' }], mode: 'all' }],
  merge: [{ inputs: 5 }, { inputs: 10, mode: 'object' }],
  'http-request': [{ url: 'https://example.org/x', method: 'GET' }],
};

const configsOf = (id: string): Record<string, unknown>[] => [getNodeType(id)!.example as Record<string, unknown>, ...(MORE_CONFIGS[id] ?? [])];

const byName = (ports: { name: string; type: string; optional?: boolean }[]) =>
  ports.map((p) => ({ name: p.name, type: p.type, optional: Boolean(p.optional) }));

describe('the node catalog', () => {
  it('lists every registered node type, each with an implementation', () => {
    expect(listCatalog().nodes.map((n) => n.id)).toEqual(NODE_DESCRIPTORS.map((d) => d.id));
    expect(NODE_TYPES.map((n) => n.id)).toEqual(NODE_DESCRIPTORS.map((d) => d.id));
  });

  it('shows the ports of the example for a node whose empty config is not valid (switch lists its cases)', () => {
    expect(getCatalogEntry('switch').outputs.map((p) => p.name)).toEqual(['patients', 'conditions', 'default']);
  });

  it('finds nodes by keyword', () => {
    expect(searchCatalog('cron').nodes.map((n) => n.id)).toEqual(['schedule-trigger']);
  });

  describe.each(NODE_DESCRIPTORS.map((d) => [d.id] as const))('%s', (id) => {
    const entry = getCatalogEntry(id);

    it('has a valid example config', () => {
      expect(getNodeType(id)!.config.safeParse(entry.example).success).toBe(true);
    });

    it.each(configsOf(id).map((c) => [JSON.stringify(c), c] as const))(
      'the catalog, the editor and the validator agree on its ports with %s',
      (_label, config) => {
        const node = getNodeType(id)!;
        const parsed = node.config.parse(config);
        const fromDescriptor = node.ports(parsed);
        const editor = nodePorts(entry, config);
        const graph = buildGraph(PipelineDefinition.parse({ nodes: [{ id: 'x', type: id, config }], connections: [] }), getNodeType).nodes.get('x')!;
        expect(byName(editor.inputs)).toEqual(byName(fromDescriptor.inputs));
        expect(byName(editor.outputs)).toEqual(byName(fromDescriptor.outputs));
        expect(byName(graph.inputs)).toEqual(byName(fromDescriptor.inputs));
        expect(byName(graph.outputs)).toEqual(byName(fromDescriptor.outputs));
        if (JSON.stringify(config) === JSON.stringify(entry.example) && !node.config.safeParse({}).success) {
          expect(byName(entry.outputs)).toEqual(byName(fromDescriptor.outputs));
        }
      },
    );

    it('passes validation when its example sits in a pipeline', () => {
      // trigger → node (its first input) → output; a trigger example stands alone with an output
      const node = getNodeType(id)!;
      const ports = node.ports(node.config.parse(node.example));
      const nodes = [{ id: 'x', type: id, config: node.example as Record<string, unknown> }];
      const connections = [];
      if (!node.trigger) {
        nodes.unshift({ id: 't', type: 'manual-trigger', config: { fields: { v: ports.inputs[0]?.type ?? 'any' } } });
        for (const p of ports.inputs.filter((q) => !q.optional)) connections.push({ source: 't', source_port: 'v', target: 'x', target_port: p.name });
        if (ports.inputs.every((q) => q.optional) && ports.inputs[0])
          connections.push({ source: 't', source_port: 'v', target: 'x', target_port: ports.inputs[0].name });
      }
      const report = validateDefinition({ nodes, connections }, getNodeType);
      expect(report.errors).toEqual([]);
    });

    it('documents its ports, config and errors from the descriptor', () => {
      const node = getNodeType(id)!;
      expect(node.documentation).not.toMatch(/\*\*(Ports|Config)\*\*/); // prose only; the sections are generated
      expect(entry.documentation).toContain('**Ports**');
      expect(entry.documentation).toContain('**Config**');
      for (const p of [...entry.inputs, ...entry.outputs]) expect(entry.documentation).toContain(`\`${p.name}\``);
      for (const code of Object.keys(node.errors)) expect(entry.documentation).toContain(`\`${code}\``);
    });

    it('declares every error code its implementation fails with', () => {
      const source = readFileSync(path.join(import.meta.dirname, '../../../engine/nodes', `${id}.execute.ts`), 'utf8');
      const thrown = [...source.matchAll(/'([A-Z][A-Z0-9]*_[A-Z0-9_]+)'/g)].map((m) => m[1]!); // codes are UPPER_SNAKE string literals
      const declared = new Set([...Object.keys(getNodeType(id)!.errors), 'CANCELLED', 'TIMEOUT']);
      for (const code of thrown) expect(declared, `${id} throws ${code}`).toContain(code);
    });
  });
});
