import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelines } from '@/server/db/schema';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

const TOKEN = 'Bearer sk_live_0123456789abcdef';

/**
 * in (manual-trigger) ──▶ call (http-request, Authorization typed into the node) ──▶ out
 */
const definition = (authorization: string) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    {
      id: 'call',
      type: 'http-request',
      config: { url: 'https://api.example.org/claims', method: 'POST', headers: { Authorization: authorization, 'X-Trace': 'on' } },
      position: { x: 1, y: 0 },
    },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 2, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'call', target_port: 'body' },
    { source: 'call', source_port: 'response', target: 'out', target_port: 'value' },
  ],
});

describe('credential headers typed into a node', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await memoryRuntime();
  }, 60_000);
  afterAll(() => rt.database.close());

  it('are shown masked, to a read key too, and keep their value when the masked definition is saved back', async () => {
    const admin = await orgCaller(rt, 'org-header-secrets');
    const reader = await orgCaller(rt, 'org-header-secrets', ['read']);
    const created = await admin.pipelines.create({ name: 'claims', description: '', definition: definition(TOKEN) });
    expect(created.definition.nodes[1]!.config.headers).toEqual({ Authorization: '••••cdef', 'X-Trace': 'on' });
    const shown = await reader.pipelines.get({ id: created.id });
    expect(JSON.stringify(shown)).not.toContain('sk_live');
    expect(JSON.stringify(await reader.pipelines.version({ id: created.id, n: 1 }))).not.toContain('sk_live');

    // the editor saves what it was shown: the secret stays as it was
    await admin.pipelines.update({ id: created.id, name: 'claims v2', definition: shown.definition });
    const [row] = await rt.db.select().from(pipelines).where(eq(pipelines.id, created.id));
    expect(row!.definition.nodes[1]!.config.headers).toEqual({ Authorization: TOKEN, 'X-Trace': 'on' });

    // a new value typed in replaces it
    await admin.pipelines.update({ id: created.id, definition: definition('Bearer sk_live_new_fedcba987654') });
    const [changed] = await rt.db.select().from(pipelines).where(eq(pipelines.id, created.id));
    expect(changed!.definition.nodes[1]!.config.headers).toMatchObject({ Authorization: 'Bearer sk_live_new_fedcba987654' });
    // and the copilot says where credentials belong
    expect((await admin.copilot.validatePipeline({ definition: shown.definition })).warnings).toContainEqual(
      expect.objectContaining({ node_id: 'call', code: 'CREDENTIAL_IN_NODE' }),
    );
  });
});
