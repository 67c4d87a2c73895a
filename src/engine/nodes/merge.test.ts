import { describe, expect, it } from 'vitest';
import { runPipeline } from '../run';
import { getNodeType } from './index';
import { mergeNode as merge } from './merge.execute';
import { runNode, SYNTHEA_PATIENTS, testServices } from '../../../tests/support/engine/node-context';

describe('merge', () => {
  it('has N optional inputs and one json output', () => {
    const ports = merge.ports(merge.config.parse({ inputs: 4 })).inputs;
    expect(ports.map((p) => p.name)).toEqual(['in1', 'in2', 'in3', 'in4']);
    expect(ports.every((p) => p.optional && p.type === 'any')).toBe(true);
    expect(merge.ports(merge.config.parse({})).inputs.map((p) => p.name)).toEqual(['in1', 'in2']);
    expect(merge.ports(merge.config.parse({})).outputs).toEqual([expect.objectContaining({ name: 'merged', type: 'json' })]);
  });

  it('combines the inputs that arrived into an object by port name', async () => {
    const [a, b] = SYNTHEA_PATIENTS;
    const r = await runNode(merge, { inputs: 3 }, { in1: a, in3: b });
    expect(r.outputs).toEqual({ merged: { in1: a, in3: b } });
  });

  it('in array mode lists the arrived values in port order, not arrival order', async () => {
    const r = await runNode(merge, { inputs: 3, mode: 'array' }, { in3: 'third', in1: 'first' });
    expect(r.outputs).toEqual({ merged: ['first', 'third'] });
  });

  it('ignores values on ports it does not have and keeps null values', async () => {
    const r = await runNode(merge, {}, { in1: null, in7: 'stray' });
    expect(r.outputs).toEqual({ merged: { in1: null } });
  });

  it('accepts 2 to 10 inputs only', () => {
    expect(merge.config.safeParse({ inputs: 1 }).success).toBe(false);
    expect(merge.config.safeParse({ inputs: 11 }).success).toBe(false);
    expect(merge.config.safeParse({ mode: 'zip' }).success).toBe(false);
  });

  it('joins the two sides of a condition in a real run: the branch not taken is just absent', async () => {
    // in ▶ cond ─true──▶ yes(jsonata) ─▶ join.in1
    //           └false─▶ no(jsonata)  ─▶ join.in2 ▶ out
    const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, config, position: { x: 0, y: 0 } });
    const link = (source: string, source_port: string, target: string, target_port: string) => ({ source, source_port, target, target_port });
    const def = {
      nodes: [
        node('in', 'manual-trigger', { fields: { patient: 'json' } }),
        node('cond', 'condition', { expression: '$exists(deceasedDateTime)' }),
        node('yes', 'jsonata-transform', { expression: '{"id": id, "status": "deceased"}' }),
        node('no', 'jsonata-transform', { expression: '{"id": id, "status": "living"}' }),
        node('join', 'merge', { mode: 'array' }),
        node('out', 'pipeline-output', { key: 'merged' }),
      ],
      connections: [
        link('in', 'patient', 'cond', 'value'),
        link('cond', 'true', 'yes', 'input'),
        link('cond', 'false', 'no', 'input'),
        link('yes', 'output', 'join', 'in1'),
        link('no', 'output', 'join', 'in2'),
        link('join', 'merged', 'out', 'value'),
      ],
    };
    const run = (patient: unknown) =>
      runPipeline(def, { executionId: 'exec-merge', inputs: { patient }, testMode: false, registry: getNodeType, services: testServices() });
    const living = await run(SYNTHEA_PATIENTS[2]);
    expect(living.outputs).toEqual({ merged: [{ id: SYNTHEA_PATIENTS[2]!.id, status: 'living' }] });
    expect(living.nodes.yes!.status).toBe('skipped');
    const deceased = await run(SYNTHEA_PATIENTS[0]);
    expect(deceased.outputs).toEqual({ merged: [{ id: SYNTHEA_PATIENTS[0]!.id, status: 'deceased' }] });
    expect(deceased.nodes.no!.status).toBe('skipped');
  });
});
