import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { PORT_TYPES } from '@/shared/ports';
import { NODE_DESCRIPTORS } from './descriptors';
import { IMPLEMENTATIONS } from './implementations';
import { getNodeType, NODE_TYPES } from './index';
import { mergeNode } from './merge.execute';

const CATEGORIES = ['healthcare', 'ai', 'data', 'output', 'control', 'claims'];

/** A minimal valid config for the nodes whose `{}` is not one (a required expression, URL, schema…). */
const EXAMPLES: Record<string, unknown> = {
  condition: { expression: 'active = true' },
  switch: {
    cases: [
      { port: 'adt', expression: 'type = "ADT"' },
      { port: 'oru', expression: 'type = "ORU"' },
    ],
  },
  'for-each': { body: { nodes: [{ id: 'in', type: 'manual-trigger' }], connections: [] } },
  'jsonata-transform': { expression: '$' },
  filter: { expression: 'active' },
  'json-schema-validate': { schema: { type: 'object' } },
  code: { source: 'return input;' },
  'http-request': { url: 'https://example.org/hook' },
  'send-email': { connector: 'Hospital mail', to: 'oncall@hospital.org', subject: 'Failed', body: '{{ error.message }}' },
  'schedule-trigger': { cron: '0 2 * * *' },
};

describe('node registry', () => {
  it('registers the expected node types once each', () => {
    const ids = NODE_TYPES.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'condition',
      'switch',
      'merge',
      'for-each',
      'jsonata-transform',
      'filter',
      'json-schema-validate',
      'csv-parse',
      'code',
      'http-request',
      'schedule-trigger',
      'webhook-trigger',
    ]) {
      expect(getNodeType(id)?.id, id).toBe(id);
    }
  });

  it('joins each registered descriptor with the implementation made from it, which the compiler holds to its id', () => {
    expect(Object.keys(IMPLEMENTATIONS).sort()).toEqual(NODE_DESCRIPTORS.map((d) => d.id).sort());
    for (const d of NODE_DESCRIPTORS) expect(getNodeType(d.id)?.config, d.id).toBe(d.config);
    expectTypeOf(mergeNode).not.toExtend<(typeof IMPLEMENTATIONS)['filter']>();
    expectTypeOf(mergeNode).toExtend<(typeof IMPLEMENTATIONS)['merge']>();
  });

  describe.each(NODE_TYPES.map((n) => [n.id, n] as const))('%s', (id, node) => {
    it('has a catalog entry a user can read', () => {
      expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(CATEGORIES).toContain(node.category);
      expect(['none', 'read', 'write']).toContain(node.side_effect);
      expect(node.name.trim()).not.toBe('');
      expect(node.description.trim()).not.toBe('');
      expect(node.documentation.trim().length).toBeGreaterThan(80);
      expect(node.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(node.keywords.length).toBeGreaterThan(0);
    });

    it('has a config schema that converts to JSON Schema', () => {
      const schema = z.toJSONSchema(node.config, { io: 'input' });
      expect(schema).toMatchObject({ type: 'object' });
    });

    it('has typed, uniquely named ports with its default (or a minimal) config', () => {
      const defaults = node.config.safeParse({});
      const parsed = defaults.success ? defaults : node.config.safeParse(EXAMPLES[id]);
      expect(parsed.success, `${id}: {} is not a valid config and there is no example`).toBe(true);
      if (!parsed.success) return;
      const check = (ports: { name: string; type: string }[]) => {
        expect(new Set(ports.map((p) => p.name)).size).toBe(ports.length);
        for (const p of ports) expect(PORT_TYPES).toContain(p.type);
      };
      check(node.ports(parsed.data).inputs);
      check(node.ports(parsed.data).outputs);
      expect(node.trigger ? node.ports(parsed.data).inputs : []).toEqual([]);
    });
  });
});
