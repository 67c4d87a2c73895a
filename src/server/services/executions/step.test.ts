import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

type Caller = Awaited<ReturnType<typeof orgCaller>>;
type Results = Record<string, { status: string; reason?: string }>;

const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, config, position: { x: 0, y: 0 } });
const edge = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });

/*
 *                        ┌─true──▶ family (jsonata name[0].family) ──▶ outF "family"
 * in ──patient──▶ check ─┤ (condition: gender = "female")
 *   │                    └─false─▶ given (jsonata name[0].given[0]) ─▶ outG "given"
 *   └──patient──▶ count (jsonata $count(name)) ──▶ outC "names"
 */
const branching = {
  nodes: [
    node('in', 'manual-trigger', { fields: { patient: 'json' } }),
    node('check', 'condition', { expression: 'gender = "female"' }),
    node('family', 'jsonata-transform', { expression: 'name[0].family' }),
    node('given', 'jsonata-transform', { expression: 'name[0].given[0]' }),
    node('outF', 'pipeline-output', { key: 'family' }),
    node('outG', 'pipeline-output', { key: 'given' }),
    node('count', 'jsonata-transform', { expression: '$count(name)' }),
    node('outC', 'pipeline-output', { key: 'names' }),
  ],
  connections: [
    edge('in', 'patient', 'check', 'value'),
    edge('check', 'true', 'family', 'input'),
    edge('check', 'false', 'given', 'input'),
    edge('family', 'output', 'outF', 'value'),
    edge('given', 'output', 'outG', 'value'),
    edge('in', 'patient', 'count', 'input'),
    edge('count', 'output', 'outC', 'value'),
  ],
};

/* in (fields items) ──items──▶ each (for-each; body: bin ─item▶ plus (jsonata n + 1) ▶ bout "n") ──results──▶ out "results" */
const looping = {
  nodes: [
    node('in', 'manual-trigger', { fields: { items: 'json' } }),
    node('each', 'for-each', {
      body: {
        nodes: [
          node('bin', 'manual-trigger', { fields: { item: 'json' } }),
          node('plus', 'jsonata-transform', { expression: 'n + 1' }),
          node('bout', 'pipeline-output', { key: 'n' }),
        ],
        connections: [edge('bin', 'item', 'plus', 'input'), edge('plus', 'output', 'bout', 'value')],
      },
    }),
    node('out', 'pipeline-output', { key: 'results' }),
  ],
  connections: [edge('in', 'items', 'each', 'items'), edge('each', 'results', 'out', 'value')],
};

/* in ──patient──▶ name (jsonata $sum("x"): fails at run time) ──▶ out "family" */
const failing = {
  nodes: [
    node('in', 'manual-trigger', { fields: { patient: 'json' } }),
    node('name', 'jsonata-transform', { expression: '$sum("x")' }),
    node('out', 'pipeline-output', { key: 'family' }),
  ],
  connections: [edge('in', 'patient', 'name', 'input'), edge('name', 'output', 'out', 'value')],
};

const patient = { resourceType: 'Patient', gender: 'male', name: [{ family: 'Kshlerin', given: ['Aaron'] }] };

/** Status (and reason) of each node, as a user compares two runs. */
const statuses = (results: Results) => Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.reason ? `${r.status}:${r.reason}` : r.status]));

describe('step sessions', () => {
  let rt: Runtime;
  let api: Caller;
  beforeAll(async () => {
    rt = await memoryRuntime();
    api = await orgCaller(rt, 'org-step');
  }, 60_000);
  afterAll(() => rt.database.close());

  /** Starts a session and advances it to the end; `pinned` gives node_outputs for some nodes. */
  async function stepThrough(pipelineId: string, inputs: Record<string, unknown>, pinned: Record<string, Record<string, unknown>> = {}) {
    const start = await api.executions.stepStart({ pipeline_id: pipelineId, inputs, test_mode: true });
    const order: string[] = [];
    const answers = [];
    let current = start.current_node;
    while (current !== null) {
      expect(order.length).toBeLessThan(20);
      const answer = await api.executions.stepAdvance({ sessionId: start.session_id, ...(current in pinned ? { node_outputs: pinned[current] } : {}) });
      expect(answer.finished_node!.node_id).toBe(current);
      order.push(current);
      answers.push(answer);
      current = answer.current_node;
      if (current === null) return { start, order, answers, last: answer };
      expect(answer.status).toBe('waiting');
    }
    throw new Error('the session never waited at a node');
  }

  it('steps to completion with the same outputs and node statuses as a sync run, in topological order', async () => {
    const p = await api.pipelines.create({ name: 'branching', description: '', definition: branching });
    const { start, order, last } = await stepThrough(p.id, { patient });
    expect(start).toMatchObject({ status: 'waiting', current_node: 'in' });
    // topological (Kahn's, stable in definition order); the branch not taken (family, outF) is never waited at
    expect(order).toEqual(['in', 'check', 'count', 'given', 'outC', 'outG']);

    const sync = await api.executions.execute({ pipeline_id: p.id, inputs: { patient }, test_mode: true, async: false });
    expect(sync.outputs).toEqual({ given: 'Aaron', names: 1 });
    expect(last).toMatchObject({ status: 'completed', current_node: null });
    expect(last.error).toBeUndefined();
    expect(statuses(last.node_results)).toEqual(statuses(sync.node_results!));
    expect(statuses(last.node_results)).toMatchObject({ family: 'skipped:branch_not_taken', outF: 'skipped:branch_not_taken' });
    // node_results listed as a full run lists them
    expect(Object.keys(last.node_results)).toEqual(Object.keys(sync.node_results!));

    // and the stored executions end alike
    const stepped = await api.executions.get({ id: start.execution_id });
    const full = await api.executions.get({ id: sync.execution_id });
    expect(stepped).toMatchObject({ status: 'completed', trigger: 'step', outputs: full.outputs, error: null });
    expect(stepped.finished_at).not.toBeNull();
    expect(stepped.duration_ms).toBeGreaterThanOrEqual(0);
    const byNode = (d: typeof full) => Object.fromEntries(d.nodes.map((n) => [n.node_id, [n.status, n.reason, n.outputs]]));
    expect(byNode(stepped)).toEqual(byNode(full));
    expect(stepped.nodes.map((n) => n.node_id)).toEqual(full.nodes.map((n) => n.node_id));
    // the session waited at the nodes in the order the execution lists them
    expect(stepped.nodes.filter((n) => n.status !== 'skipped').map((n) => n.node_id)).toEqual(order);
  });

  it('uses node_outputs instead of running the node; pinned outputs pick the branch downstream', async () => {
    const p = await api.pipelines.create({ name: 'pinned', description: '', definition: branching });
    // the condition would send a male patient to `false`; pinned, the value goes out of `true`
    const pinnedPatient = { ...patient, name: [{ family: 'Pinned', given: ['Pat'] }] };
    const { start, order, answers, last } = await stepThrough(p.id, { patient }, { check: { true: pinnedPatient } });
    expect(order).toEqual(['in', 'check', 'count', 'family', 'outC', 'outF']);
    expect(answers[1]!.finished_node).toMatchObject({ node_id: 'check', status: 'completed', outputs: { true: pinnedPatient } });
    expect(last).toMatchObject({ status: 'completed', node_results: { given: { status: 'skipped', reason: 'branch_not_taken' } } });
    const detail = await api.executions.get({ id: start.execution_id });
    expect(detail.outputs).toEqual({ family: 'Pinned', names: 1 });
    const check = detail.nodes.find((n) => n.node_id === 'check')!;
    expect(check).toMatchObject({ status: 'completed', inputs: { value: patient }, outputs: { true: pinnedPatient } });
    expect(check.logs.map((l) => l.message).join()).toContain('set by hand');

    // only output ports of the current node may be pinned
    const other = await api.executions.stepStart({ pipeline_id: p.id, inputs: { patient }, test_mode: true });
    await api.executions.stepAdvance({ sessionId: other.session_id });
    await expect(api.executions.stepAdvance({ sessionId: other.session_id, node_outputs: { maybe: 1 } })).rejects.toMatchObject({
      cause: { code: 'VALIDATION_FAILED' },
    });
  });

  it('runs a for-each body inside a step and gives its results', async () => {
    const p = await api.pipelines.create({ name: 'looping', description: '', definition: looping });
    const { order, answers, last, start } = await stepThrough(p.id, { items: [{ n: 1 }, { n: 5 }] });
    expect(order).toEqual(['in', 'each', 'out']);
    expect(answers[1]!.finished_node).toMatchObject({ node_id: 'each', status: 'completed', outputs: { results: [{ n: 2 }, { n: 6 }] } });
    expect(last).toMatchObject({ status: 'completed' });
    expect((await api.executions.get({ id: start.execution_id })).outputs).toEqual({ results: [{ n: 2 }, { n: 6 }] });
  });

  it('a failed step ends the session failed and records the nodes after it as a full run does', async () => {
    const p = await api.pipelines.create({ name: 'failing', description: '', definition: failing });
    const { start, order, last } = await stepThrough(p.id, { patient });
    expect(order).toEqual(['in', 'name']);
    expect(last).toMatchObject({
      status: 'failed',
      current_node: null,
      finished_node: { node_id: 'name', status: 'failed' },
      error: { node_id: 'name', code: 'TRANSFORM_FAILED' },
    });
    expect(last.node_results.out).toEqual({ status: 'skipped', duration_ms: 0, reason: 'upstream_failed' });

    const sync = await api.executions.execute({ pipeline_id: p.id, inputs: { patient }, test_mode: true, async: false });
    expect(statuses(last.node_results)).toEqual(statuses(sync.node_results!));
    expect(last.error).toEqual(sync.error);
    const stepped = await api.executions.get({ id: start.execution_id });
    expect(stepped).toMatchObject({ status: 'failed', error: { node_id: 'name', code: 'TRANSFORM_FAILED' }, outputs: {} });
    expect(stepped.finished_at).not.toBeNull();
    expect(stepped.nodes.find((n) => n.node_id === 'out')).toMatchObject({ status: 'skipped', reason: 'upstream_failed', error: null });
    // the session is over
    await expect(api.executions.stepAdvance({ sessionId: start.session_id })).rejects.toMatchObject({ cause: { code: 'STEP_SESSION_FINISHED' } });
  });
});
