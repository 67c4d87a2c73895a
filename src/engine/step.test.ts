import { describe, expect, it } from 'vitest';
import type { NodeRun } from './execute-node';
import { runPipeline, StepRun, type RunOptions } from './run';
import { n, noServices, pipeline, registry } from '../../tests/support/engine/builders';

let seq = 0;
const opts = (over: Partial<RunOptions> = {}): RunOptions => ({
  executionId: `step-${++seq}`,
  inputs: { n: 1 },
  testMode: false,
  registry,
  services: noServices,
  ...over,
});

/**
 * Steps through a definition as a step session does: a fresh StepRun over the records stored so far
 * before every step (the session is rebuilt from the database each time). Returns every stored record
 * and the result.
 */
async function stepThrough(def: ReturnType<typeof pipeline>, o: RunOptions, pinned: Record<string, Record<string, unknown>> = {}) {
  const stored: Record<string, NodeRun> = {};
  const order: string[] = [];
  const first = StepRun.of(def, { ...o, carried: {} });
  let current = first.current();
  Object.assign(stored, first.takeChanged());
  for (let guard = 0; current !== null && guard < 50; guard++) {
    const outcome = await StepRun.of(def, { ...o, carried: { ...stored } }).advance(pinned[current]);
    expect(outcome.node).toBe(current);
    order.push(outcome.node);
    Object.assign(stored, outcome.changed);
    current = outcome.next;
    if (current === null) return { stored, order, result: outcome.result! };
  }
  throw new Error('the session never ended');
}

describe('StepRun', () => {
  it('waits at the trigger first and advances in topological order to the same result as a full run', async () => {
    //        ┌▶ a(inc) ─▶ oa
    // in ────┤
    //        └▶ b(inc, by 10) ─▶ ob
    const def = pipeline(
      [n('oa', 'pipeline-output'), n('in', 'manual-trigger'), n('b', 'inc', { by: 10 }), n('a', 'inc'), n('ob', 'pipeline-output')],
      'in>a',
      'in>b',
      'a>oa',
      'b>ob',
    );
    expect(StepRun.of(def, opts()).current()).toBe('in');
    const stepped = await stepThrough(def, opts());
    const full = await runPipeline(def, opts());
    expect(stepped.order[0]).toBe('in');
    expect(stepped.order.indexOf('b')).toBeLessThan(stepped.order.indexOf('ob'));
    expect(stepped.result.status).toBe('completed');
    expect(stepped.result.outputs).toEqual(full.outputs);
    expect(Object.fromEntries(Object.entries(stepped.stored).map(([id, r]) => [id, r.status]))).toEqual(
      Object.fromEntries(Object.entries(full.nodes).map(([id, r]) => [id, r.status])),
    );
  });

  it('takes pinned outputs instead of running the node', async () => {
    // in ▶ a(inc) ▶ b(inc) ▶ out; a pinned to {n: 40}
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>b', 'b>out');
    const { stored, result } = await stepThrough(def, opts(), { a: { out: { n: 40 } } });
    expect(stored.a!.logs[0]!.message).toContain('set by hand');
    expect(result.outputs).toEqual({ out: { n: 41 } });
  });

  it('settles the branch not taken on the way, as a full run does', async () => {
    // in ▶ split ─even▶ e(inc) ▶ oe
    //            └odd─▶ o(inc) ▶ oo
    const def = pipeline(
      [n('in', 'manual-trigger'), n('split', 'split'), n('e', 'inc'), n('o', 'inc'), n('oe', 'pipeline-output'), n('oo', 'pipeline-output')],
      'in>split',
      'split.even>e',
      'split.odd>o',
      'e>oe',
      'o>oo',
    );
    const { stored, order, result } = await stepThrough(def, opts({ inputs: { n: 3 } }));
    expect(order).not.toContain('e');
    expect(stored.e!.status).toBe('skipped');
    expect(stored.oe!.status).toBe('skipped');
    expect(result.outputs).toEqual({ oo: { n: 4 } });
  });

  it('a failed step skips its downstream (upstream_failed) and what never ran (execution_stopped), like a full run, and ends the session', async () => {
    //        ┌▶ x(boom) ▶ b(inc) ▶ out
    // in ────┤
    //        └▶ c(inc) ▶ oc          (c comes after x in topological order: it never runs)
    const def = pipeline(
      [n('in', 'manual-trigger'), n('x', 'boom'), n('c', 'inc'), n('b', 'inc'), n('out', 'pipeline-output'), n('oc', 'pipeline-output')],
      'in>x',
      'in>c',
      'x>b',
      'b>out',
      'c>oc',
    );
    const { stored, result } = await stepThrough(def, opts());
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ node_id: 'x', code: 'BOOM' });
    expect(stored.b).toMatchObject({ status: 'skipped', reason: 'upstream_failed' });
    expect(stored.out).toMatchObject({ status: 'skipped', reason: 'upstream_failed' });
    expect(stored.c).toMatchObject({ status: 'skipped', reason: 'execution_stopped' });
    expect(stored.oc).toMatchObject({ status: 'skipped', reason: 'execution_stopped' });
  });

  it('runs a for-each body inside a step', async () => {
    // in(fields items) ▶ each(for-each: item ▶ inc ▶ out) ▶ out
    const body = {
      nodes: [
        { id: 'bin', type: 'manual-trigger', config: { fields: { item: 'json' } }, position: { x: 0, y: 0 } },
        { id: 'plus', type: 'jsonata-transform', config: { expression: 'n + 1' }, position: { x: 0, y: 0 } },
        { id: 'bout', type: 'pipeline-output', config: { key: 'n' }, position: { x: 0, y: 0 } },
      ],
      connections: [
        { source: 'bin', source_port: 'item', target: 'plus', target_port: 'input' },
        { source: 'plus', source_port: 'output', target: 'bout', target_port: 'value' },
      ],
    };
    const def = pipeline(
      [n('in', 'manual-trigger', { fields: { items: 'json' } }), n('each', 'for-each', { body }), n('out', 'pipeline-output', { key: 'results' })],
      'in.items>each.items',
      'each.results>out',
    );
    const { result } = await stepThrough(def, opts({ inputs: { items: [{ n: 1 }, { n: 5 }] } }));
    expect(result.status).toBe('completed');
    expect(result.outputs).toEqual({ results: [{ n: 2 }, { n: 6 }] });
  });

  it('pinned outputs of a branching node decide the branch, as its own outputs would', async () => {
    // in ▶ split ─even▶ e(inc) ▶ oe
    //            └odd─▶ o(inc) ▶ oo        n = 3 would go `odd`; split is pinned to `even`
    const def = pipeline(
      [n('in', 'manual-trigger'), n('split', 'split'), n('e', 'inc'), n('o', 'inc'), n('oe', 'pipeline-output'), n('oo', 'pipeline-output')],
      'in>split',
      'split.even>e',
      'split.odd>o',
      'e>oe',
      'o>oo',
    );
    const { stored, order, result } = await stepThrough(def, opts({ inputs: { n: 3 } }), { split: { even: { n: 10 } } });
    expect(order).toEqual(['in', 'split', 'e', 'oe']);
    expect(stored.split).toMatchObject({ status: 'completed', inputs: { in: { n: 3 } }, outputs: { even: { n: 10 } } });
    expect(stored.o).toMatchObject({ status: 'skipped', reason: 'branch_not_taken' });
    expect(result.outputs).toEqual({ oe: { n: 11 } });
  });

  it('reports the next node after each step, null at the end; nothing is left to advance then', async () => {
    // in ▶ a(inc) ▶ out
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>out');
    const run = StepRun.of(def, opts());
    expect(run.current()).toBe('in');
    expect((await run.advance()).next).toBe('a');
    expect((await run.advance()).next).toBe('out');
    const last = await run.advance();
    expect(last).toMatchObject({ node: 'out', next: null, result: { status: 'completed', outputs: { out: { n: 2 } } } });
    expect(run.current()).toBeNull();
    await expect(run.advance()).rejects.toThrow('no node left');
  });
});
