import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

const definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 200, y: 0 } },
  ],
  connections: [{ id: 'c1', source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
};

/** Pipelines through the tRPC caller (the same procedures REST and the UI use), on in-memory PGlite. */
describe('pipelines service', () => {
  let rt: Runtime;
  let a: Awaited<ReturnType<typeof orgCaller>>;
  let b: Awaited<ReturnType<typeof orgCaller>>;
  beforeAll(async () => {
    rt = await memoryRuntime();
    a = await orgCaller(rt, 'org-a');
    b = await orgCaller(rt, 'org-b');
  });
  afterAll(() => rt.database.close());

  it('creates at version 1 with a snapshot, and every update adds one', async () => {
    const p = await a.pipelines.create({ name: 'Labs', description: 'ORU feed', definition });
    expect(p).toMatchObject({ name: 'Labs', version: 1, status: 'active', node_count: 2 });
    await a.pipelines.update({ id: p.id, name: 'Labs v2' });
    const v3 = await a.pipelines.update({ id: p.id, definition: { nodes: [], connections: [] } });
    expect(v3).toMatchObject({ name: 'Labs v2', version: 3, node_count: 0 });
    const { versions } = await a.pipelines.versions({ id: p.id, limit: 100, offset: 0 });
    expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect((await a.pipelines.version({ id: p.id, n: 1 })).definition).toEqual(p.definition);
    expect(versions[0]!.created_by).toBe('api-key:00000000-0000-4000-8000-000000000001');
  });

  it('loses no update when many arrive at once: each gets its own version and snapshot', async () => {
    const p = await a.pipelines.create({ name: 'busy', description: '', definition });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => a.pipelines.update({ id: p.id, name: `edit ${i}` })));
    expect(results.map((r) => r.version).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const { total_count } = await a.pipelines.versions({ id: p.id, limit: 100, offset: 0 });
    expect(total_count).toBe(11);
  });

  it('refuses to delete a deployed pipeline and deletes it once undeployed', async () => {
    const p = await a.pipelines.create({ name: 'live', description: '', definition });
    await a.pipelines.deploy({ id: p.id });
    await expect(a.pipelines.remove({ id: p.id })).rejects.toMatchObject({ cause: { code: 'PIPELINE_DEPLOYED' } });
    await a.pipelines.undeploy({ id: p.id });
    await a.pipelines.remove({ id: p.id });
    await expect(a.pipelines.get({ id: p.id })).rejects.toMatchObject({ cause: { code: 'PIPELINE_NOT_FOUND' } });
  });

  it("keeps organizations apart: another organization's pipeline is not found", async () => {
    const p = await a.pipelines.create({ name: 'private', description: '', definition });
    await expect(b.pipelines.get({ id: p.id })).rejects.toMatchObject({ cause: { code: 'PIPELINE_NOT_FOUND' } });
    await expect(b.pipelines.update({ id: p.id, name: 'x' })).rejects.toMatchObject({ cause: { code: 'PIPELINE_NOT_FOUND' } });
    await expect(b.pipelines.remove({ id: p.id })).rejects.toMatchObject({ cause: { code: 'PIPELINE_NOT_FOUND' } });
    expect((await b.pipelines.list({ limit: 100, offset: 0 })).pipelines.map((x) => x.id)).not.toContain(p.id);
    expect((await a.pipelines.get({ id: p.id })).name).toBe('private');
  });

  it('enforces scopes: a read key lists but cannot create', async () => {
    const reader = await orgCaller(rt, 'org-a', ['read']);
    await expect(reader.pipelines.list({ limit: 20, offset: 0 })).resolves.toHaveProperty('total_count');
    await expect(reader.pipelines.create({ name: 'x', description: '', definition })).rejects.toMatchObject({
      cause: { code: 'FORBIDDEN' },
    });
  });
});
