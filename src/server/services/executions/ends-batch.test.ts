import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/server/db/rows';
import { createRuntime, type Runtime } from '@/server/runtime';
import { migratedDatabase } from '../../../../tests/support/databases';
import { orgCaller } from '../../../../tests/support/runtime';

/*
 * in (manual-trigger) ──▶ shout (jsonata) ──▶ out; `fail`: the transform raises an error for names starting with "x"
 */
const definition = (fail: boolean) => ({
  nodes: [
    { id: 'in', type: 'manual-trigger', config: { fields: { name: 'text' } }, position: { x: 0, y: 0 } },
    {
      id: 'shout',
      type: 'jsonata-transform',
      config: { expression: fail ? '$substring(name, 0, 1) = "x" ? $error("refused: " & name) : {"loud": $uppercase(name)}' : '{"loud": $uppercase(name)}' },
      position: { x: 0, y: 0 },
    },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [
    { source: 'in', source_port: 'event', target: 'shout', target_port: 'input' },
    { source: 'shout', source_port: 'output', target: 'out', target_port: 'value' },
  ],
});

// Runs ending at the same time have their ends written together (result-writer.ts), as one statement when none settles
// a queue job (ends-batch.ts): each run's row and node records must be what its own end would have written.
describe.each(['pglite', 'postgres'] as const)('runs ending together keep what their policy says (%s)', (kind) => {
  let rt: Runtime;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const { database, close: closeDb } = await migratedDatabase(kind, 'ends_batch', 10);
    rt = await createRuntime(database, { rateLimitPerWindow: 1_000_000 });
    close = closeDb;
  }, 120_000);
  afterAll(() => close());

  it('stores each of many concurrent runs as its own end would, under full and errors, completed and failed', async () => {
    const a = await orgCaller(rt, 'org-ends');
    const deployed = async (name: string, policy: 'full' | 'errors', fail = false) => {
      const p = await a.pipelines.create({ name, description: '', definition: definition(fail), data_settings: { policy } });
      await a.pipelines.deploy({ id: p.id });
      return p.id;
    };
    const full = await deployed('full', 'full');
    const errors = await deployed('errors', 'errors', true);
    // one with a name of 3,000 characters: its records' payloads are stored deflated (stored-payloads.ts)
    const long = `di${'-dorothea'.repeat(333)}`;
    const runs = [
      ...['ada', 'bob', 'cy', long].map((name) => ({ pipeline: full, name, expect: 'full' as const })),
      ...['eve', 'fay', 'gus'].map((name) => ({ pipeline: errors, name, expect: 'errors-ok' as const })),
      ...['xia', 'xu'].map((name) => ({ pipeline: errors, name, expect: 'errors-failed' as const })),
    ];
    const results = await Promise.all(
      runs.map((r) => a.executions.execute({ pipeline_id: r.pipeline, inputs: { name: r.name }, test_mode: false, async: false })),
    );
    for (const [i, r] of runs.entries()) {
      const id = results[i]!.execution_id;
      const detail = await a.executions.get({ id });
      const [row] = rowsOf<{
        inputs: unknown;
        inputs_z: unknown;
        outputs: unknown;
        node_runs: unknown;
        claimed_by: unknown;
        nodes: number;
        deflated: number;
        outputs_deflated: boolean;
      }>(
        await rt.db.execute(sql`select inputs, inputs_z, outputs, node_runs, claimed_by,
          (select count(*)::int from execution_nodes n where n.execution_id = e.id) as nodes,
          (select count(*)::int from execution_nodes n where n.execution_id = e.id and n.payloads_z is not null) as deflated,
          outputs_z is not null as outputs_deflated
          from executions e where id = ${id}::uuid`),
      );
      const name = r.name;
      if (r.expect === 'full') {
        expect(detail).toMatchObject({
          status: 'completed',
          data_policy: 'full',
          payloads: 'kept',
          inputs: { name },
          outputs: { out: { loud: name.toUpperCase() } },
        });
        expect(detail.nodes.find((n) => n.node_id === 'shout')).toMatchObject({
          status: 'completed',
          inputs: { input: { name } },
          outputs: { output: { loud: name.toUpperCase() } },
        });
        // the long name's input is deflated in the row, and each node's payloads in its record (out's is its emitted value)
        if (name === long) expect(row).toMatchObject({ inputs: {}, node_runs: null, nodes: 3, deflated: 3, outputs: null, outputs_deflated: true });
        else expect(row).toMatchObject({ inputs: { name }, node_runs: null, nodes: 3, deflated: 0, outputs_deflated: false });
      } else if (r.expect === 'errors-ok') {
        expect(detail).toMatchObject({ status: 'completed', data_policy: 'errors', payloads: 'not_kept', inputs: null, outputs: null });
        expect(detail.nodes.map((n) => [n.node_id, n.status])).toEqual([
          ['in', 'completed'],
          ['shout', 'completed'],
          ['out', 'completed'],
        ]);
        // nothing of the message is left: the input, the outputs and the node records' payloads are gone
        expect(row).toMatchObject({ inputs: {}, inputs_z: null, outputs: null, nodes: 0 });
        expect(JSON.stringify(row!.node_runs)).not.toContain(name);
      } else {
        expect(detail).toMatchObject({ status: 'failed', data_policy: 'errors', payloads: 'kept', inputs: { name }, error: { node_id: 'shout' } });
        expect(detail.error!.message).toContain(`refused: ${name}`);
        expect(detail.nodes.find((n) => n.node_id === 'shout')).toMatchObject({ status: 'failed', inputs: { input: { name } } });
        expect(row).toMatchObject({ inputs: { name }, node_runs: null, nodes: 3 });
      }
      expect(row!.claimed_by).toBeNull();
    }
    // every slot was given back: a new run is admitted at once
    const again = await a.executions.execute({ pipeline_id: full, inputs: { name: 'zed' }, test_mode: false, async: false });
    expect(again.status).toBe('completed');
  });
});
