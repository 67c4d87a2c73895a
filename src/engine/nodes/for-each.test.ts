import { describe, expect, it } from 'vitest';
import type { PipelineDefinition } from '@/shared/pipeline';
import { runPipeline } from '../run';
import { forEachNode as forEach } from './for-each.execute';
import { getNodeType } from './index';
import { runNode, SYNTHEA_PATIENTS, testContext, testServices } from '../../../tests/support/engine/node-context';

// body (the node's example): in(manual-trigger, fields {item}) ──item──▶ name(jsonata-transform) ──▶ out(pipeline-output "display")
const { body } = forEach.config.parse(forEach.example);

/** A runSubgraph that waits a little (longer for earlier items) and records how many ran at once. */
function recordingSubgraph(fail?: number) {
  const calls: Record<string, unknown>[] = [];
  let active = 0;
  let peak = 0;
  const runSubgraph = async (_def: PipelineDefinition, inputs: Record<string, unknown>) => {
    calls.push(inputs);
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 40 - 5 * Number(inputs.index)));
    active--;
    if (inputs.index === fail) throw new Error('The pipeline is not valid: boom');
    return { doubled: Number(inputs.item) * 2 };
  };
  return { runSubgraph, calls, peak: () => peak };
}

describe('for-each', () => {
  it('runs the body once per item with {item, index} and keeps item order', async () => {
    const sub = recordingSubgraph();
    const ctx = testContext({ runSubgraph: sub.runSubgraph });
    const r = await runNode(forEach, { body, concurrency: 3 }, { items: [1, 2, 3, 4, 5] }, ctx);
    expect(r.outputs).toEqual({ results: [1, 2, 3, 4, 5].map((n) => ({ doubled: n * 2 })) });
    expect(sub.calls.map((c) => c.index).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(sub.calls[0]).toEqual({ item: 1, index: 0 });
    expect(ctx.logs.some((l) => l.level === 'info' && l.message.includes('ran 5 item(s)'))).toBe(true);
  });

  it('never runs more items at once than the concurrency allows', async () => {
    for (const concurrency of [1, 2, 4]) {
      const sub = recordingSubgraph();
      await runNode(forEach, { body, concurrency }, { items: [1, 2, 3, 4, 5, 6, 7, 8] }, testContext({ runSubgraph: sub.runSubgraph }));
      expect(sub.peak()).toBe(concurrency);
    }
  });

  it('stops starting items after one fails and names it', async () => {
    const sub = recordingSubgraph(1);
    const run = runNode(forEach, { body }, { items: [1, 2, 3, 4] }, testContext({ runSubgraph: sub.runSubgraph }));
    await expect(run).rejects.toMatchObject({ code: 'FOR_EACH_ITEM_FAILED', message: expect.stringMatching(/^Item 1 failed: .*boom/) });
    expect(sub.calls).toHaveLength(2);
  });

  it('fails with NOT_AN_ARRAY on anything but an array', async () => {
    await expect(runNode(forEach, { body }, { items: { a: 1 } })).rejects.toMatchObject({ code: 'NOT_AN_ARRAY' });
    await expect(runNode(forEach, { body }, { items: null })).rejects.toMatchObject({ code: 'NOT_AN_ARRAY', message: expect.stringContaining('null') });
  });

  it('gives an empty result for an empty array without running the body', async () => {
    const sub = recordingSubgraph();
    const r = await runNode(forEach, { body }, { items: [] }, testContext({ runSubgraph: sub.runSubgraph }));
    expect(r.outputs).toEqual({ results: [] });
    expect(sub.calls).toHaveLength(0);
  });

  it('checks the body and concurrency as config', () => {
    expect(forEach.config.safeParse({}).success).toBe(false);
    expect(forEach.config.safeParse({ body, concurrency: 11 }).success).toBe(false);
    expect(
      forEach.config.safeParse({
        body: {
          nodes: [
            { id: 'a', type: 'x' },
            { id: 'a', type: 'y' },
          ],
          connections: [],
        },
      }).success,
    ).toBe(false);
    expect(forEach.config.parse({ body }).concurrency).toBe(1);
  });

  it('runs a real body through the engine', async () => {
    // in ▶ each(for-each: body above) ▶ out
    const def = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { patients: 'json' } }, position: { x: 0, y: 0 } },
        { id: 'each', type: 'for-each', config: { body, concurrency: 2 }, position: { x: 0, y: 0 } },
        { id: 'out', type: 'pipeline-output', config: { key: 'names' }, position: { x: 0, y: 0 } },
      ],
      connections: [
        { source: 'in', source_port: 'patients', target: 'each', target_port: 'items' },
        { source: 'each', source_port: 'results', target: 'out', target_port: 'value' },
      ],
    };
    const r = await runPipeline(def, {
      executionId: 'exec-for-each',
      inputs: { patients: SYNTHEA_PATIENTS.slice(0, 3) },
      testMode: false,
      registry: getNodeType,
      services: testServices(),
    });
    expect(r.error).toBeNull();
    expect(r.outputs).toEqual({
      names: [{ display: 'Sumiko254 Medhurst46' }, { display: 'Devin82 Cole117' }, { display: 'Denis399 Schmitt836' }],
    });
  });
});
