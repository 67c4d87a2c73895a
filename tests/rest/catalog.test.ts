import { describe, expect, inject, it } from 'vitest';
import { client, expectError } from '../support/client';

describe('node catalog over REST', () => {
  const target = inject('targets')[0]!;
  const api = client(target.url, target.orgA);

  it('lists every node type with ports, JSON Schema config and documentation; filters by category', async () => {
    const all = await api.get('/api/node-catalog');
    expect(all.status).toBe(200);
    expect(all.body.categories).toEqual(['healthcare', 'ai', 'data', 'output', 'control', 'claims']);
    expect(all.body.total_count).toBe(all.body.nodes.length);
    const trigger = all.body.nodes.find((n: { id: string }) => n.id === 'manual-trigger');
    expect(trigger).toMatchObject({ category: 'control', trigger: true, side_effect: 'none', inputs: [], outputs: [{ name: 'event', type: 'trigger-event' }] });
    expect(trigger.config_schema).toMatchObject({ type: 'object', properties: { fields: expect.any(Object) } });
    expect(trigger.documentation).toContain('inputs');
    const ids = all.body.nodes.map((n: { id: string }) => n.id);
    expect(new Set(ids).size).toBe(ids.length);

    const data = await api.get('/api/node-catalog?category=data');
    expect(data.body.nodes.length).toBeGreaterThan(0);
    expect(data.body.nodes.every((n: { category: string }) => n.category === 'data')).toBe(true);
    expectError(await api.get('/api/node-catalog?category=magic'), 400, 'VALIDATION_FAILED');
  });

  it('searches name, description and keywords (URL-encoded, case-insensitive)', async () => {
    const r = await api.get(`/api/node-catalog/search/${encodeURIComponent('Pipeline OUTPUT')}`);
    expect(r.status).toBe(200);
    expect(r.body.nodes.map((n: { id: string }) => n.id)).toContain('pipeline-output');
    const byKeyword = await api.get('/api/node-catalog/search/jsonata');
    expect(byKeyword.body.nodes.map((n: { id: string }) => n.id)).toContain('jsonata-transform');
    expect((await api.get('/api/node-catalog/search/zzzz-nothing')).body).toMatchObject({ nodes: [], total_count: 0 });
  });

  it('gives one node type in full, and 404 for an unknown one', async () => {
    const r = await api.get('/api/node-catalog/pipeline-output');
    expect(r.body).toMatchObject({ id: 'pipeline-output', category: 'output', inputs: [{ name: 'value', type: 'any' }], outputs: [] });
    expectError(await api.get('/api/node-catalog/no-such-node'), 404, 'NODE_TYPE_NOT_FOUND');
    // a node whose config has required fields still shows its ports
    const transform = await api.get('/api/node-catalog/jsonata-transform');
    expect(transform.body).toMatchObject({ inputs: [{ name: 'input', type: 'any' }], outputs: [{ name: 'output', type: 'json' }] });
    expect(transform.body.config_schema.required).toContain('expression');
  });
});
