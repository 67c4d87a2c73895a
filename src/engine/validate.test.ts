import { describe, expect, it } from 'vitest';
import { n, pipeline, registry } from '../../tests/support/engine/builders';
import { validateDefinition } from './validate';

const codes = (r: ReturnType<typeof validateDefinition>) => r.errors.map((e) => `${e.node_id}:${e.code}`).sort();

describe('validateDefinition', () => {
  it('accepts a well-formed pipeline', () => {
    // in ▶ a(inc) ▶ out
    const r = validateDefinition(pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>out'), registry);
    expect(r).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('warns about a disabled node, saying what passes through it; a disabled trigger is an error', () => {
    // in ▶ a(inc, disabled) ▶ out
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>out');
    def.nodes[1]!.disabled = true;
    const r = validateDefinition(def, registry);
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([
      { node_id: 'a', code: 'NODE_DISABLED', message: 'Node "a" is disabled and does not run: its input "in" passes through to "out".' },
    ]);
    def.nodes[0]!.disabled = true;
    const t = validateDefinition(def, registry);
    expect(t.valid).toBe(false);
    expect(codes(t)).toEqual(['in:TRIGGER_DISABLED']);
  });

  it('says what to do about a config problem, in words', () => {
    // in ▶ t(jsonata-transform, no expression yet) ▶ out ; s(switch, bad mode)
    const def = pipeline(
      [
        n('in', 'manual-trigger'),
        n('t', 'jsonata-transform'),
        n('out', 'pipeline-output'),
        n('s', 'switch', { cases: [{ port: 'a', expression: 'x' }], mode: 'some' }),
      ],
      'in>t.input',
      't.output>out',
      'in>s.value',
    );
    const messages = validateDefinition(def, registry).errors.map((e) => `${e.node_id}: ${e.message}`);
    expect(messages).toContain('t: Expression is required: enter some text');
    expect(messages).toContain('s: Mode: pick one of "first", "all"');
  });

  it('reports every problem with its node id', () => {
    // in ▶ a(inc) ▶ ghost (missing) ; b: unknown type ; c(inc) input unconnected ; bad config on d
    const def = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: {} },
        { id: 'a', type: 'inc', config: {} },
        { id: 'b', type: 'no-such-type', config: {} },
        { id: 'c', type: 'inc', config: {} },
        { id: 'd', type: 'inc', config: { by: 'three' } },
      ],
      connections: [
        { source: 'in', source_port: 'event', target: 'a', target_port: 'in' },
        { source: 'a', source_port: 'out', target: 'ghost', target_port: 'in' },
        { source: 'a', source_port: 'nope', target: 'd', target_port: 'in' },
      ],
    };
    const r = validateDefinition(def, registry);
    expect(r.valid).toBe(false);
    expect(codes(r)).toEqual(['a:DANGLING_CONNECTION', 'a:UNKNOWN_PORT', 'b:UNKNOWN_NODE_TYPE', 'c:INPUT_NOT_CONNECTED', 'd:INVALID_CONFIG'].sort());
    expect(r.errors.find((e) => e.code === 'INVALID_CONFIG')!.message).toMatch(/^By: enter a number/);
    expect(r.warnings.map((w) => w.code)).toContain('UNREACHABLE');
  });

  it('refuses cycles, port type mismatches, doubly fed inputs and duplicate connections', () => {
    // in ▶ a ▶ b ◀▶ c   (b ▶ c ▶ b is a cycle; b.in is fed twice)
    const loop = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('b', 'inc'), n('c', 'inc')], 'in>a', 'a>b', 'b>c', 'c>b.in');
    const r = validateDefinition(loop, registry);
    expect(
      r.errors
        .filter((e) => e.code === 'CYCLE')
        .map((e) => e.node_id)
        .sort(),
    ).toEqual(['b', 'c']);
    expect(codes(r)).toContain('b:INPUT_ALREADY_CONNECTED');

    // two triggers; the same connection twice
    const typed = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { msg: 'text' } } },
        { id: 'in2', type: 'manual-trigger', config: { fields: { doc: 'fhir-bundle' } } },
        { id: 'out', type: 'pipeline-output', config: {} },
      ],
      connections: [
        { id: 'x', source: 'in', source_port: 'msg', target: 'out', target_port: 'value' },
        { id: 'x', source: 'in', source_port: 'msg', target: 'out', target_port: 'value' },
      ],
    };
    const t = validateDefinition(typed, registry);
    expect(codes(t)).toEqual(['in2:MULTIPLE_TRIGGERS', 'out:DUPLICATE_CONNECTION', 'out:DUPLICATE_CONNECTION'].sort());
  });

  it('refuses a connection whose port types do not fit', () => {
    // in.doc (fhir-bundle) ▶ up.in (text) ✗ ; in.msg (text) ▶ up2.in (text) ✓
    const def = pipeline(
      [n('in', 'manual-trigger', { fields: { doc: 'fhir-bundle', msg: 'text' } }), n('up', 'upper'), n('up2', 'upper'), n('out', 'pipeline-output')],
      'in.doc>up',
      'in.msg>up2',
      'up2>out',
    );
    const r = validateDefinition(def, registry);
    expect(codes(r)).toEqual(['up:PORT_TYPE_MISMATCH']);
    expect(r.errors[0]!.message).toBe('in.doc gives fhir-bundle but up.in takes text.');
  });

  it('needs a trigger and reports shape errors with the node id', () => {
    expect(codes(validateDefinition(pipeline([n('a', 'inc')]), registry))).toEqual(['a:INPUT_NOT_CONNECTED', 'null:MISSING_TRIGGER']);
    const bad = validateDefinition({ nodes: [{ id: 'x y', type: 'inc' }], connections: [] }, registry);
    expect(bad.errors[0]).toMatchObject({ node_id: 'x y', code: 'INVALID_SHAPE' });
    expect(validateDefinition({ nodes: [], connections: [] }, registry).errors[0]!.code).toBe('EMPTY_PIPELINE');
  });

  it('warns when nothing leaves the pipeline', () => {
    const r = validateDefinition(pipeline([n('in', 'manual-trigger'), n('a', 'inc')], 'in>a'), registry);
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([expect.objectContaining({ node_id: null, code: 'NO_OUTPUT' })]);
  });

  it('checks for-each bodies with the pipeline and reports their problems on the for-each node', () => {
    // in.items ▶ loop(for-each; body: in2 ▶ t(unknown type), and a schedule trigger) ▶ out
    const body = {
      nodes: [
        { id: 'in2', type: 'manual-trigger', config: { fields: { item: 'json' } } },
        { id: 't', type: 'no-such-type', config: {} },
        { id: 'tick', type: 'schedule-trigger', config: { cron: '* * * * *' } },
      ],
      connections: [{ source: 'in2', source_port: 'item', target: 't', target_port: 'in' }],
    };
    const def = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: { fields: { items: 'json' } } },
        { id: 'loop', type: 'for-each', config: { body } },
        { id: 'out', type: 'pipeline-output', config: {} },
      ],
      connections: [
        { source: 'in', source_port: 'items', target: 'loop', target_port: 'items' },
        { source: 'loop', source_port: 'results', target: 'out', target_port: 'value' },
      ],
    };
    const r = validateDefinition(def, registry);
    expect(r.valid).toBe(false);
    expect(codes(r)).toEqual(['loop:INVALID_CONFIG', 'loop:MULTIPLE_TRIGGERS', 'loop:UNKNOWN_NODE_TYPE']);
    expect(r.errors.find((e) => e.code === 'UNKNOWN_NODE_TYPE')!.message).toBe('Body › node "t": Unknown node type "no-such-type".');
    expect(r.errors.find((e) => e.code === 'INVALID_CONFIG')!.message).toMatch(/node "tick": a body starts with manual-trigger, not schedule-trigger/);

    // the same body, fixed, is valid, and its lack of a pipeline-output is no warning (results go to the loop)
    const fixed = { ...body, nodes: [body.nodes[0]!, { id: 't', type: 'inc', config: {} }] };
    const ok = validateDefinition({ ...def, nodes: [def.nodes[0]!, { id: 'loop', type: 'for-each', config: { body: fixed } }, def.nodes[2]!] }, registry);
    expect(ok).toEqual({ valid: true, errors: [], warnings: [] });
  });
  it('ignores sticky notes: they are not nodes, even with an id or text that looks like one', () => {
    // in ▶ a(inc) ▶ out, and notes "a" and "ghost" beside it
    const def = pipeline([n('in', 'manual-trigger'), n('a', 'inc'), n('out', 'pipeline-output')], 'in>a', 'a>out');
    const notes = [
      { id: 'a', text: 'type: inc', position: { x: 0, y: 200 }, width: 240, height: 160, color: 'yellow' as const },
      { id: 'ghost', text: '', position: { x: 300, y: 200 }, width: 240, height: 160, color: 'blue' as const },
    ];
    expect(validateDefinition({ ...def, notes }, registry)).toEqual({ valid: true, errors: [], warnings: [] });
  });
});
