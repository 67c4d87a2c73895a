import { beforeAll, describe, expect, inject, it } from 'vitest';
import { orgWithKey } from '../support/accounts';
import { client, type Client } from '../support/client';

/*
 * in (manual-trigger) ──▶ js (code: `source`) ──▶ out
 */
const definition = (source: string, timeout_ms = 1000) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {} },
    { id: 'js', type: 'code', config: { source, timeout_ms } },
    { id: 'out', type: 'pipeline-output', config: {} },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'js', target_port: 'input' },
    { source: 'js', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

describe.each(inject('targets'))('code node over REST on $name', (target) => {
  let heavy: Client;
  let other: Client;
  beforeAll(async () => {
    heavy = client(target.url, await orgWithKey(target.url, `code-heavy-${target.name}-${Date.now()}@example.org`));
    other = client(target.url, await orgWithKey(target.url, `code-other-${target.name}-${Date.now()}@example.org`));
  });

  it('runs user code in the sandbox and returns its result', async () => {
    const p = await heavy.post('/api/pipelines', { name: 'age', definition: definition('return { years: 2026 - Number(input.born) };') });
    const r = await heavy.post('/api/execute', { pipeline_id: p.body.id, inputs: { born: '1980' }, test_mode: true });
    expect(r.body).toMatchObject({ status: 'completed', outputs: { out: { years: 46 } } });
  });

  it("one organization's spinning code does not hold up another organization's requests", async () => {
    const p = await heavy.post('/api/pipelines', { name: 'spin', definition: definition('while (true) {}', 1500) });
    const order: string[] = [];
    // several at once, as many as the sandbox has workers and more
    const spins = Array.from({ length: 4 }, () =>
      heavy.post('/api/execute', { pipeline_id: p.body.id, inputs: {}, test_mode: true }).then((r) => {
        order.push('spin');
        expect(r.body.error).toMatchObject({ node_id: 'js', code: 'CODE_TIMEOUT' });
      }),
    );
    await new Promise((r) => setTimeout(r, 200)); // the runs have started
    const list = await other.get('/api/pipelines');
    order.push('other');
    expect(list.status).toBe(200);
    await Promise.all(spins);
    expect(order[0]).toBe('other');
  });
});
