import { describe, expect, it } from 'vitest';
import { toFlow } from './definition';
import { connectionProblem, nodePorts } from './ports';
import { CATALOG_BY_ID as C } from './test-catalog';

const names = (ports: { name: string }[]) => ports.map((p) => p.name);

describe('nodePorts', () => {
  it('adds an output per manual-trigger field, typed as declared', () => {
    const { outputs } = nodePorts(C['manual-trigger'], { fields: { message: 'text', patient: 'fhir-resource' } });
    expect(outputs).toEqual([
      { name: 'event', type: 'trigger-event', description: 'The whole inputs object' },
      { name: 'message', type: 'text', description: 'inputs.message' },
      { name: 'patient', type: 'fhir-resource', description: 'inputs.patient' },
    ]);
  });

  it('gives a switch one output per case plus default', () => {
    const { inputs, outputs } = nodePorts(C.switch, {
      cases: [
        { port: 'patients', expression: 'x' },
        { port: 'conditions', expression: 'y' },
      ],
    });
    expect(names(inputs)).toEqual(['value']);
    expect(names(outputs)).toEqual(['patients', 'conditions', 'default']);
  });

  it('gives merge in1..inN from config.inputs', () => {
    expect(names(nodePorts(C.merge, { inputs: 4 }).inputs)).toEqual(['in1', 'in2', 'in3', 'in4']);
    expect(nodePorts(C.merge, { inputs: 4 }).inputs[3]).toMatchObject({ type: 'any', optional: true });
  });

  it('keeps the ports of a config that does not parse yet (a case being typed)', () => {
    const { outputs } = nodePorts(C.switch, { cases: [{ port: 'patients', expression: '' }] });
    expect(names(outputs)).toEqual(['patients', 'default']);
    expect(nodePorts(C['jsonata-transform'], {})).toMatchObject({ inputs: [{ name: 'input', type: 'any' }], outputs: [{ name: 'output', type: 'json' }] });
  });

  it('falls back to the example ports when the raw config breaks the port rules', () => {
    const { outputs } = nodePorts(C.switch, { cases: [{ port: 'a' }, { port: 'a' }] });
    expect(names(outputs)).toEqual(['patients', 'conditions', 'default']);
  });
});

//  trigger.event ─► out.value      csv.rows (free)
const { nodes, edges } = toFlow({
  nodes: [
    { id: 'trigger', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'csv', type: 'csv-parse', config: {}, position: { x: 0, y: 0 } },
    { id: 'jt', type: 'jsonata-transform', config: {}, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 0, y: 0 } },
  ],
  connections: [{ source: 'trigger', source_port: 'event', target: 'out', target_port: 'value' }],
});

describe('connectionProblem', () => {
  const check = (source: string, sourceHandle: string, target: string, targetHandle: string) =>
    connectionProblem({ source, sourceHandle, target, targetHandle }, nodes, edges, C);

  it('accepts equal types and any', () => {
    expect(check('trigger', 'event', 'jt', 'input')).toBeNull();
    expect(check('csv', 'rows', 'jt', 'input')).toBeNull();
  });
  it('refuses types that do not fit', () => {
    expect(check('trigger', 'event', 'csv', 'text')).toMatch(/"event" gives the whole inputs object \(trigger-event\), but input "text" takes text \(text\)/);
  });
  it('refuses a second connection into one input', () => {
    expect(check('csv', 'rows', 'out', 'value')).toMatch(/already has a connection/);
  });
  it('refuses self-loops and cycles', () => {
    expect(check('jt', 'output', 'jt', 'input')).toMatch(/itself/);
    const looped = [...edges, { id: 'x', source: 'jt', target: 'csv', sourceHandle: 'output', targetHandle: 'text' }];
    expect(connectionProblem({ source: 'csv', sourceHandle: 'rows', target: 'jt', targetHandle: 'input' }, nodes, looped, C)).toMatch(/cycle/);
  });
  it('refuses unknown ports', () => {
    expect(check('trigger', 'nope', 'jt', 'input')).toMatch(/Unknown port/);
  });
});
