import { describe, expect, it } from 'vitest';
import { runPipeline, type RunOptions } from './run';
import { evenTargets, n, noServices, outputReads, pipeline, registry, sent } from '../../tests/support/engine/builders';

let seq = 0;
const opts = (over: Partial<RunOptions> = {}): RunOptions => ({
  executionId: `exec-${++seq}`,
  inputs: { n: 1 },
  testMode: false,
  registry,
  services: noServices,
  ...over,
});

describe('runPipeline', () => {
  it('runs a chain in order and collects outputs', async () => {
    // in ──▶ a(inc) ──▶ b(inc, by 10) ──▶ out
    const def = pipeline(
      [n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc', { by: 10 }), n('out', 'pipeline-output', { key: 'result' })],
      'in>a',
      'a>b',
      'b>out',
    );
    const r = await runPipeline(def, opts());
    expect(r.status).toBe('completed');
    expect(r.outputs).toEqual({ result: { n: 12 } });
    expect(r.nodes.a).toMatchObject({ status: 'completed', inputs: { in: { n: 1 } }, outputs: { out: { n: 2 } }, attempts: 1 });
    expect(r.nodes.b!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(r.nodes.b!.started_ms!).toBeGreaterThanOrEqual(r.nodes.a!.finished_ms!);
  });

  it('tells a node which of its outputs anything reads: connected ones always, the rest only where the run keeps them', async () => {
    // in ──▶ s(split) ──even──▶ out (odd goes nowhere)
    const def = pipeline([n('in', 'manual-trigger'), n('s', 'split'), n('out', 'pipeline-output', { key: 'result' })], 'in>s', 's.even>out');
    const reads = (executionId: string) => outputReads.get(`${executionId}:s`);
    const a = opts({ inputs: { n: 2 } });
    await runPipeline(def, a);
    expect(reads(a.executionId)).toEqual({ even: true, odd: true });
    const b = opts({ inputs: { n: 2 }, outputsKept: false });
    expect((await runPipeline(def, b)).outputs).toEqual({ result: { n: 2 } });
    expect(reads(b.executionId)).toEqual({ even: true, odd: false });
  });

  it('tells a node the types of the nodes an output feeds, a disabled one (its input passes on) as disabled', async () => {
    // in ──▶ s(split) ──even──▶ a(inc), b(inc, disabled), out; odd ──▶ c(inc)
    const disabled = { ...n('b', 'inc'), disabled: true };
    const nodes = [n('in', 'manual-trigger'), n('s', 'split'), n('a', 'inc'), disabled, n('c', 'inc'), n('out', 'pipeline-output', { key: 'r' })];
    const a = opts({ inputs: { n: 2 } });
    await runPipeline(pipeline(nodes, 'in>s', 's.even>a', 's.even>b', 's.odd>c', 's.even>out'), a);
    expect(evenTargets.get(`${a.executionId}:s`)).toEqual(['inc', 'disabled', 'pipeline-output']);
  });

  it("uses a node's pinned outputs in test runs instead of running it, and never in real runs", async () => {
    // in ──▶ a(inc, pinned {n: 100}) ──▶ b(inc, by 10) ──▶ out
    const def = pipeline(
      [n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc', { by: 10 }), n('out', 'pipeline-output', { key: 'result' })],
      'in>a',
      'a>b',
      'b>out',
    );
    def.nodes[1]!.pinned = { out: { n: 100 } };
    const test = await runPipeline(def, opts({ testMode: true }));
    expect(test.outputs).toEqual({ result: { n: 110 } });
    expect(test.nodes.a).toMatchObject({
      status: 'completed',
      outputs: { out: { n: 100 } },
      attempts: 0,
      logs: [{ message: expect.stringContaining('pinned') }],
    });
    const real = await runPipeline(def, opts({ testMode: false }));
    expect(real.outputs).toEqual({ result: { n: 12 } });
  });

  it("passes a disabled node's input through without running it, in test and real runs alike", async () => {
    // in ──▶ a(inc, disabled) ──▶ b(inc, by 10) ──▶ out
    const def = pipeline(
      [n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc', { by: 10 }), n('out', 'pipeline-output', { key: 'result' })],
      'in>a',
      'a>b',
      'b>out',
    );
    def.nodes[1]!.disabled = true;
    def.nodes[1]!.pinned = { out: { n: 100 } }; // disabled wins over pinned
    for (const testMode of [true, false]) {
      const r = await runPipeline(def, opts({ testMode }));
      expect(r.status).toBe('completed');
      expect(r.outputs).toEqual({ result: { n: 11 } }); // 1, not incremented by a, plus 10
      expect(r.nodes.a).toMatchObject({ status: 'skipped', reason: 'disabled', inputs: { in: { n: 1 } }, outputs: { out: { n: 1 } }, attempts: 0 });
      expect(r.nodes.a!.logs[0]!.message).toContain('input "in" passed through to "out"');
    }
  });

  it('a disabled node whose outputs do not take its input passes nothing on: its downstream does not run', async () => {
    // in(fields message: text) ──message▶ parse(hl7v2-parse, disabled; text in, hl7v2-message out) ──message▶ out
    const def = pipeline(
      [n('in', 'manual-trigger', { fields: { message: 'text' } }), n('parse', 'hl7v2-parse'), n('out', 'pipeline-output')],
      'in.message>parse.text',
      'parse.message>out',
    );
    def.nodes[1]!.disabled = true;
    const r = await runPipeline(def, opts({ inputs: { message: 'MSH|^~\\&|A' } }));
    expect(r.status).toBe('completed');
    expect(r.nodes.parse).toMatchObject({ status: 'skipped', reason: 'disabled', outputs: {} });
    expect(r.nodes.parse!.logs[0]!.message).toContain('none of its outputs takes input "text"');
    expect(r.nodes.out).toMatchObject({ status: 'skipped', reason: 'branch_not_taken' });
  });

  it('runs to a node: that node and its upstream run; everything else is skipped as not requested', async () => {
    //        ┌▶ a(inc) ──▶ b(inc) ──▶ w(write) ──▶ oB
    // in ────┤
    //        └▶ c(inc) ──▶ oC
    const def = pipeline(
      [n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc'), n('w', 'write'), n('oB', 'pipeline-output'), n('c', 'inc'), n('oC', 'pipeline-output')],
      'in>a',
      'a>b',
      'b>w',
      'w>oB',
      'in>c',
      'c>oC',
    );
    const before = sent.length;
    const r = await runPipeline(def, opts({ runTo: 'b' }));
    expect(r.status).toBe('completed');
    expect(r.nodes.b).toMatchObject({ status: 'completed', outputs: { out: { n: 3 } } });
    expect(r.nodes.in!.status).toBe('completed');
    expect(r.nodes.a!.status).toBe('completed');
    for (const id of ['w', 'oB', 'c', 'oC']) expect(r.nodes[id]).toMatchObject({ status: 'skipped', reason: 'not_requested' });
    expect(Object.keys(r.nodes)).toEqual(['in', 'a', 'b', 'w', 'oB', 'c', 'oC']); // every node listed
    expect(r.outputs).toEqual({});
    expect(sent.length).toBe(before); // the write downstream never ran

    // to the trigger: only the trigger runs
    const t = await runPipeline(def, opts({ runTo: 'in' }));
    expect(
      Object.entries(t.nodes)
        .filter(([, x]) => x.status !== 'skipped')
        .map(([id]) => id),
    ).toEqual(['in']);
  });

  it('runs independent branches concurrently', async () => {
    //        ┌▶ s1(slow 150) ▶ o1
    // in ────┤
    //        └▶ s2(slow 150) ▶ o2
    const def = pipeline(
      [n('in', 'manual-trigger'), n('s1', 'slow', { ms: 150 }), n('s2', 'slow', { ms: 150 }), n('o1', 'pipeline-output'), n('o2', 'pipeline-output')],
      'in>s1',
      'in>s2',
      's1>o1',
      's2>o2',
    );
    const r = await runPipeline(def, opts());
    expect(r.status).toBe('completed');
    // both were running at the same time: each started before the other finished
    expect(r.nodes.s2!.started_ms!).toBeLessThan(r.nodes.s1!.finished_ms!);
    expect(r.nodes.s1!.started_ms!).toBeLessThan(r.nodes.s2!.finished_ms!);
    expect(Object.keys(r.outputs).sort()).toEqual(['o1', 'o2']);
  });

  it('skips the branch not taken, and everything after it', async () => {
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
    const r = await runPipeline(def, opts({ inputs: { n: 3 } }));
    expect(r.status).toBe('completed');
    expect(r.nodes.o!.status).toBe('completed');
    expect(r.nodes.e!.status).toBe('skipped');
    expect(r.nodes.oe!.status).toBe('skipped');
    expect(r.outputs).toEqual({ oo: { n: 4 } });
  });

  it('fails the execution naming the node; only that node is failed, its downstream is skipped (upstream_failed)', async () => {
    // in ▶ a(inc) ▶ x(boom) ▶ b(inc) ▶ out
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('x', 'boom'), n('b', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>x', 'x>b', 'b>out');
    const r = await runPipeline(def, opts());
    expect(r.status).toBe('failed');
    expect(r.error).toMatchObject({ node_id: 'x', code: 'BOOM' });
    expect(r.error!.message).toContain('Node "x" (boom) failed');
    expect(r.nodes.a!.status).toBe('completed');
    expect(r.nodes.x).toMatchObject({ status: 'failed', error: { code: 'BOOM' } });
    expect(r.nodes.b).toMatchObject({ status: 'skipped', reason: 'upstream_failed', error: null });
    expect(r.nodes.out).toMatchObject({ status: 'skipped', reason: 'upstream_failed' });
    expect(Object.values(r.nodes).filter((n) => n.status === 'failed')).toHaveLength(1);
    expect(r.outputs).toEqual({});
  });

  it('retries a node by its settings and times out a slow one', async () => {
    // in ▶ x(boom, fails twice; 3 attempts) ▶ out
    const flaky = pipeline(
      [n('in', 'manual-trigger'), n('x', 'boom', { times: 2 }, { retry: { max_attempts: 3, backoff_ms: 1 } }), n('out', 'pipeline-output')],
      'in>x',
      'x>out',
    );
    const r = await runPipeline(flaky, opts());
    expect(r.status).toBe('completed');
    expect(r.nodes.x).toMatchObject({ status: 'completed', attempts: 3 });
    expect(r.nodes.x!.logs.filter((l) => l.level === 'warn')).toHaveLength(2);

    // in ▶ s(slow 500, limit 50 ms) ▶ out
    const stuck = pipeline([n('in', 'manual-trigger'), n('s', 'slow', { ms: 500 }, { timeout_ms: 50 }), n('out', 'pipeline-output')], 'in>s', 's>out');
    const t = await runPipeline(stuck, opts());
    expect(t.status).toBe('failed');
    expect(t.nodes.s!.error).toMatchObject({ code: 'TIMEOUT' });
  });

  it('holds each node to its own time limit, also when an earlier attempt with that limit ended early', async () => {
    //        ┌▶ quick(slow 20, limit 1000) ▶ o1
    // in ────┤
    //        └▶ stuck(slow 2000, limit 100) ▶ o2
    const parallel = pipeline(
      [
        n('in', 'manual-trigger'),
        n('quick', 'slow', { ms: 20 }, { timeout_ms: 1000 }),
        n('stuck', 'slow', { ms: 2000 }, { timeout_ms: 100 }),
        n('o1', 'pipeline-output'),
        n('o2', 'pipeline-output'),
      ],
      'in>quick',
      'in>stuck',
      'quick>o1',
      'stuck>o2',
    );
    const p = await runPipeline(parallel, opts());
    expect(p.nodes.quick!.status).toBe('completed');
    expect(p.nodes.stuck).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
    expect(p.nodes.stuck!.duration_ms).toBeLessThan(2000); // stopped at its limit, not when its work would have ended

    // in ▶ a(slow 10, limit 150) ▶ b(slow 2000, limit 150) ▶ out: a's deadline is cleared before b's is due
    const chain = pipeline(
      [
        n('in', 'manual-trigger'),
        n('a', 'slow', { ms: 10 }, { timeout_ms: 150 }),
        n('b', 'slow', { ms: 2000 }, { timeout_ms: 150 }),
        n('out', 'pipeline-output'),
      ],
      'in>a',
      'a>b',
      'b>out',
    );
    const c = await runPipeline(chain, opts());
    expect(c.nodes.a!.status).toBe('completed');
    expect(c.nodes.b).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
    expect(c.nodes.b!.duration_ms).toBeGreaterThanOrEqual(150);
    expect(c.nodes.b!.duration_ms).toBeLessThan(2000);
  });

  it('in test mode a write node does not write: it is simulated with the payload it would send', async () => {
    // in ▶ w(write) ▶ out
    const def = pipeline([n('in', 'manual-trigger'), n('w', 'write'), n('out', 'pipeline-output')], 'in>w', 'w>out');
    const before = sent.length;
    const r = await runPipeline(def, opts({ testMode: true }));
    expect(sent.length).toBe(before);
    expect(r.nodes.w).toMatchObject({ status: 'simulated', outputs: { out: { would_send: { n: 1 } } } });
    await runPipeline(def, opts());
    expect(sent.length).toBe(before + 1);
    expect(sent.at(-1)).toEqual({ key: `exec-${seq}:w`, body: { n: 1 } });
  });

  it('takes carried-over runs as they are and re-runs the rest (retry from a node)', async () => {
    // in ▶ a(inc) ▶ b(inc) ▶ out ; first run, then retry from b with a's stored output
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>b', 'b>out');
    const first = await runPipeline(def, opts());
    const carried = { in: first.nodes.in!, a: { ...first.nodes.a!, outputs: { out: { n: 100 } } } };
    const retry = await runPipeline(def, opts({ carried }));
    expect(retry.outputs).toEqual({ out: { n: 101 } });
    const overridden = await runPipeline(def, opts({ carried, inputOverrides: { b: { in: { n: 7 } } } }));
    expect(overridden.outputs).toEqual({ out: { n: 8 } });
  });

  it('an override replaces the ports it names and keeps what upstream gives the others (retry with some inputs)', async () => {
    // in ▶ a(inc) ─in1▶ m(merge) ◀in2─ b(inc) ◀ in ; retry m with only in2 replaced
    const def = pipeline(
      [n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc'), n('m', 'merge'), n('out', 'pipeline-output')],
      'in>a',
      'in>b',
      'a>m.in1',
      'b>m.in2',
      'm.merged>out',
    );
    const first = await runPipeline(def, opts());
    expect(first.outputs).toEqual({ out: { in1: { n: 2 }, in2: { n: 2 } } });
    const carried = { in: first.nodes.in!, a: first.nodes.a!, b: first.nodes.b! };
    const retried = await runPipeline(def, opts({ carried, inputOverrides: { m: { in2: { n: 50 } } } }));
    expect(retried.outputs).toEqual({ out: { in1: { n: 2 }, in2: { n: 50 } } });
  });

  it('refuses an invalid definition without running anything', async () => {
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'nope')], 'in>a');
    const r = await runPipeline(def, opts());
    expect(r).toMatchObject({ status: 'failed', error: { code: 'PIPELINE_INVALID', node_id: 'a' }, nodes: {} });
  });
});
