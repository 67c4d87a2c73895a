import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, expectError, type Client } from '../support/client';

/*
 * in (manual-trigger, field patient: json) ──patient──▶ name (jsonata: family name) ──▶ out (key "family"),
 * with sticky notes beside it: text for people, saved with the definition, never nodes.
 */
const notes = [
  { id: 'note-1', text: '## Family name\nTakes `name[0].family`', position: { x: 0, y: 200 }, width: 320, height: 180, color: 'blue' },
  // a note whose id is a node's: notes and nodes do not share ids
  { id: 'name', text: 'ask **Ward 3** before changing', position: { x: 400, y: 200 }, width: 240, height: 160, color: 'yellow' },
];
const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { patient: 'json' } }, position: { x: 0, y: 0 } },
    { id: 'name', type: 'jsonata-transform', config: { expression: 'name[0].family' }, position: { x: 320, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: { key: 'family' }, position: { x: 640, y: 0 } },
  ],
  connections: [
    { id: 'c1', source: 'in', source_port: 'patient', target: 'name', target_port: 'input' },
    { id: 'c2', source: 'name', source_port: 'output', target: 'out', target_port: 'value' },
  ],
  notes,
};

describe.each(inject('targets'))('sticky notes over REST on $name', (target) => {
  let api: Client;
  beforeAll(async () => {
    api = client(target.url, await orgWithKey(target.url, `notes-${target.name}-${Date.now()}@example.org`));
  });

  it('create, get, update and versions keep the notes as sent; metadata counts only nodes', async () => {
    const created = await api.post('/api/pipelines', { name: 'with notes', definition });
    expect(created.status).toBe(201);
    expect(created.body.definition.notes).toEqual(notes);
    expect(created.body.node_count).toBe(3);
    const got = await api.get(`/api/pipelines/${created.body.id}`);
    expect(got.body.definition).toEqual(definition);
    expect(got.body.metadata).toMatchObject({ node_count: 3, connection_count: 2, node_types: ['jsonata-transform', 'manual-trigger', 'pipeline-output'] });

    const edited = [{ ...notes[0]!, text: 'edited', color: 'green' }];
    const put = await api.put(`/api/pipelines/${created.body.id}`, { definition: { ...definition, notes: edited } });
    expect(put.status).toBe(200);
    expect(put.body.definition.notes).toEqual(edited);
    expect((await api.get(`/api/pipelines/${created.body.id}/versions/1`)).body.definition.notes).toEqual(notes);
    expect((await api.get(`/api/pipelines/${created.body.id}/versions/2`)).body.definition.notes).toEqual(edited);

    // a definition without notes stays without them
    const plain = await api.put(`/api/pipelines/${created.body.id}`, { definition: { nodes: definition.nodes, connections: definition.connections } });
    expect(plain.body.definition).not.toHaveProperty('notes');
  });

  it('fills in a note sent with its id only, and refuses a malformed one', async () => {
    const r = await api.post('/api/pipelines', { name: 'bare note', definition: { nodes: [], connections: [], notes: [{ id: 'n' }] } });
    expect(r.status).toBe(201);
    expect(r.body.definition.notes).toEqual([{ id: 'n', text: '', position: { x: 0, y: 0 }, width: 240, height: 160, color: 'yellow' }]);
    expectError(
      await api.post('/api/pipelines', { name: 'bad', definition: { nodes: [], connections: [], notes: [{ id: 'n', color: 'plaid' }] } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api.post('/api/pipelines', { name: 'bad', definition: { nodes: [], connections: [], notes: [{ id: 'n' }, { id: 'n' }] } }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('validation and runs ignore notes: no findings about them, no node results for them', async () => {
    const v = await api.post('/api/copilot/validate/pipeline', { definition });
    expect(v.status).toBe(200);
    expect(v.body.valid).toBe(true);
    expect(v.body.errors).toEqual([]);
    expect(JSON.stringify(v.body.warnings)).not.toMatch(/note-1|Ward 3/);

    const id = (await api.post('/api/pipelines', { name: 'notes run', definition })).body.id;
    const run = await api.post('/api/execute', { pipeline_id: id, inputs: { patient: { name: [{ family: 'Kshlerin' }] } }, test_mode: true });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'completed', outputs: { family: 'Kshlerin' } });
    expect(Object.keys(run.body.node_results).sort()).toEqual(['in', 'name', 'out']);
    const detail = await api.get(`/api/executions/${run.body.execution_id}`);
    expect(detail.body.nodes.map((n: { node_id: string }) => n.node_id).sort()).toEqual(['in', 'name', 'out']);
  });
});
