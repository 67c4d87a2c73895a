import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@/server/runtime';
import { memoryRuntime, orgCaller } from '../../../../tests/support/runtime';

type Caller = Awaited<ReturnType<typeof orgCaller>>;
type Results = Record<string, { status: string; reason?: string }>;

const node = (id: string, type: string, config: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => ({
  id,
  type,
  config,
  position: { x: 0, y: 0 },
  ...more,
});
const edge = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });

/*
 * in ──patient──▶ family (jsonata name[0].family) ──▶ upper (jsonata $uppercase($)) ──▶ outF "family"
 *   └──patient──▶ count (jsonata $count(name)) ──▶ outC "names"
 */
function chart(disabled: string[] = []) {
  const more = (id: string) => (disabled.includes(id) ? { disabled: true } : {});
  return {
    nodes: [
      node('in', 'manual-trigger', { fields: { patient: 'json' } }, more('in')),
      node('family', 'jsonata-transform', { expression: 'name[0].family' }, more('family')),
      node('upper', 'jsonata-transform', { expression: '$uppercase($)' }, more('upper')),
      node('outF', 'pipeline-output', { key: 'family' }, more('outF')),
      node('count', 'jsonata-transform', { expression: '$count(name)' }, more('count')),
      node('outC', 'pipeline-output', { key: 'names' }, more('outC')),
    ],
    connections: [
      edge('in', 'patient', 'family', 'input'),
      edge('family', 'output', 'upper', 'input'),
      edge('upper', 'output', 'outF', 'value'),
      edge('in', 'patient', 'count', 'input'),
      edge('count', 'output', 'outC', 'value'),
    ],
  };
}

const patient = { resourceType: 'Patient', name: [{ family: 'Kshlerin', given: ['Aaron'] }] };

/** Status (and reason) of each node, as a user reads node_results. */
const statuses = (results: Results) => Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.reason ? `${r.status}:${r.reason}` : r.status]));

describe('disabled nodes and run to here', () => {
  let rt: Runtime;
  let api: Caller;
  beforeAll(async () => {
    rt = await memoryRuntime();
    api = await orgCaller(rt, 'org-run-to');
  }, 60_000);
  afterAll(() => rt.database.close());

  it('runs a test run only up to the node asked for; the rest is skipped as not requested, and stored so', async () => {
    const p = await api.pipelines.create({ name: 'to family', description: '', definition: chart() });
    const r = await api.executions.execute({ pipeline_id: p.id, inputs: { patient }, test_mode: true, async: false, run_to_node: 'family' });
    expect(r.status).toBe('completed');
    expect(statuses(r.node_results!)).toEqual({
      in: 'completed',
      family: 'completed',
      upper: 'skipped:not_requested',
      outF: 'skipped:not_requested',
      count: 'skipped:not_requested',
      outC: 'skipped:not_requested',
    });
    expect(r.outputs).toEqual({});
    const detail = await api.executions.get({ id: r.execution_id });
    expect(detail.test_mode).toBe(true);
    expect(detail.nodes.find((n) => n.node_id === 'family')).toMatchObject({ status: 'completed', outputs: { output: 'Kshlerin' } });
    expect(detail.nodes.find((n) => n.node_id === 'count')).toMatchObject({ status: 'skipped', reason: 'not_requested' });

    // the whole pipeline, as before
    const full = await api.executions.execute({ pipeline_id: p.id, inputs: { patient }, test_mode: true, async: false });
    expect(full.outputs).toEqual({ family: 'KSHLERIN', names: 1 });
  });

  it('refuses run_to_node outside a synchronous test run, and a node the pipeline does not have', async () => {
    const p = await api.pipelines.create({ name: 'refusals', description: '', definition: chart() });
    await api.pipelines.deploy({ id: p.id });
    const base = { pipeline_id: p.id, inputs: { patient } };
    await expect(api.executions.execute({ ...base, test_mode: false, async: false, run_to_node: 'family' })).rejects.toMatchObject({
      cause: { code: 'VALIDATION_FAILED' },
    });
    await expect(api.executions.execute({ ...base, test_mode: true, async: true, run_to_node: 'family' })).rejects.toMatchObject({
      cause: { code: 'VALIDATION_FAILED' },
    });
    await expect(api.executions.execute({ ...base, test_mode: true, async: false, run_to_node: 'ghost' })).rejects.toMatchObject({
      cause: { code: 'NODE_NOT_FOUND' },
    });
    // without it, a real run of the deployed pipeline runs everything
    const real = await api.executions.execute({ ...base, test_mode: false, async: false });
    expect(real.outputs).toEqual({ family: 'KSHLERIN', names: 1 });
  });

  it('passes a disabled node\u2019s input through in test and real runs, with a warning from the validator', async () => {
    const def = chart(['upper']);
    const report = await api.pipelines.validate({ definition: def });
    expect(report.valid).toBe(true);
    expect(report.warnings.map((w) => `${w.node_id}:${w.code}`)).toEqual(['upper:NODE_DISABLED']);

    const p = await api.pipelines.create({ name: 'disabled upper', description: '', definition: def });
    await api.pipelines.deploy({ id: p.id });
    for (const test_mode of [true, false]) {
      const r = await api.executions.execute({ pipeline_id: p.id, inputs: { patient }, test_mode, async: false });
      expect(r.outputs).toEqual({ family: 'Kshlerin', names: 1 }); // not upper-cased
      expect(statuses(r.node_results!)).toMatchObject({ family: 'completed', upper: 'skipped:disabled', outF: 'completed' });
      const detail = await api.executions.get({ id: r.execution_id });
      const upper = detail.nodes.find((n) => n.node_id === 'upper')!;
      expect(upper).toMatchObject({ status: 'skipped', reason: 'disabled', inputs: { input: 'Kshlerin' }, outputs: { output: 'Kshlerin' } });
      expect(upper.logs.map((l) => l.message).join()).toContain('passed through');
    }
  });

  it('a disabled trigger makes the pipeline invalid: it cannot run', async () => {
    const def = chart(['in']);
    const report = await api.pipelines.validate({ definition: def });
    expect(report.errors.map((e) => `${e.node_id}:${e.code}`)).toEqual(['in:TRIGGER_DISABLED']);
    const p = await api.pipelines.create({ name: 'disabled trigger', description: '', definition: def });
    await expect(api.executions.execute({ pipeline_id: p.id, inputs: { patient }, test_mode: true, async: false })).rejects.toMatchObject({
      cause: { code: 'PIPELINE_INVALID' },
    });
  });
});
