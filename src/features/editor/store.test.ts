import { describe, expect, it } from 'vitest';
import { canonical } from './definition';
import { layoutDocument } from './auto-layout';
import { createEditorStore, currentDefinition } from './store';
import { CATALOG, entry } from './test-catalog';

function makeStore() {
  const empty = { nodes: [], connections: [] };
  return createEditorStore({ pipelineId: 'p1', catalog: CATALOG, definition: empty, saved: empty, baseVersion: 1, runInputs: '{}' });
}

const dirty = (s: ReturnType<typeof makeStore>) => canonical(currentDefinition(s.getState())) !== s.getState().savedKey;

describe('editor store', () => {
  it('opens a pipeline saved by a REST client (no connection ids, no positions) without unsaved changes', () => {
    const saved = {
      nodes: [
        { id: 'in', type: 'manual-trigger', config: {} },
        { id: 'out', type: 'pipeline-output' },
      ],
      connections: [{ source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
    } as never;
    const s = createEditorStore({ pipelineId: 'p1', catalog: CATALOG, definition: saved, saved, baseVersion: 3, runInputs: '{}' });
    expect(dirty(s)).toBe(false);
    s.getState().updateNode('out', { name: 'Result' }, 'name');
    expect(dirty(s)).toBe(true);
  });

  it('adds nodes with unique readable ids and default config', () => {
    const s = makeStore();
    expect(s.getState().addNode('manual-trigger', { x: 0, y: 0 })).toBe('manual-trigger-1');
    expect(s.getState().addNode('manual-trigger', { x: 0, y: 0 })).toBe('manual-trigger-2');
    expect(s.getState().nodes[0]!.data.config).toEqual({ fields: {} });
    expect(s.getState().addNode('no-such-type', { x: 0, y: 0 })).toBeNull();
  });

  it('connects fitting ports only', () => {
    const s = makeStore();
    s.getState().addNode('manual-trigger', { x: 0, y: 0 });
    s.getState().addNode('csv-parse', { x: 0, y: 0 });
    s.getState().addNode('pipeline-output', { x: 0, y: 0 });
    expect(s.getState().connect({ source: 'manual-trigger-1', sourceHandle: 'event', target: 'pipeline-output-1', targetHandle: 'value' })).toEqual({
      ok: true,
    });
    expect(s.getState().connect({ source: 'csv-parse-1', sourceHandle: 'rows', target: 'pipeline-output-1', targetHandle: 'value' })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/already has a connection: delete that one first/),
    });
    expect(currentDefinition(s.getState()).connections).toEqual([
      {
        id: 'manual-trigger-1.event->pipeline-output-1.value',
        source: 'manual-trigger-1',
        source_port: 'event',
        target: 'pipeline-output-1',
        target_port: 'value',
      },
    ]);
  });

  it('connects a trigger to a typed input by giving the trigger the field that fits, named after the input', () => {
    const s = makeStore();
    s.getState().addNode('manual-trigger', { x: 0, y: 0 });
    s.getState().addNode('csv-parse', { x: 300, y: 0 });
    const r = s.getState().connect({ source: 'manual-trigger-1', sourceHandle: 'event', target: 'csv-parse-1', targetHandle: 'text' });
    expect(r).toMatchObject({ ok: true, note: expect.stringContaining('input "text" (text)') });
    expect(s.getState().nodes[0]!.data.config).toEqual({ fields: { text: 'text' } });
    expect(currentDefinition(s.getState()).connections).toMatchObject([
      { source: 'manual-trigger-1', source_port: 'text', target: 'csv-parse-1', target_port: 'text' },
    ]);
    // one undo step takes both back
    s.getState().undo();
    expect(s.getState().nodes[0]!.data.config).toEqual({ fields: {} });
    expect(s.getState().edges).toEqual([]);
  });

  it('offers a node that converts between types that do not fit, and puts it between them', () => {
    const catalog = [...CATALOG, entry('hl7v2-parse', { category: 'healthcare' }), entry('hl7v2-to-fhir', { category: 'healthcare' })];
    const empty = { nodes: [], connections: [] };
    const s = createEditorStore({ pipelineId: 'p1', catalog, definition: empty, saved: empty, baseVersion: 1, runInputs: '{}' });
    s.getState().addNode('csv-parse', { x: 0, y: 0 });
    s.getState().addNode('hl7v2-to-fhir', { x: 600, y: 0 });
    s.getState().addNode('manual-trigger', { x: -300, y: 0 });
    s.getState().connect({ source: 'manual-trigger-1', sourceHandle: 'event', target: 'csv-parse-1', targetHandle: 'text' });
    const c = { source: 'manual-trigger-1', sourceHandle: 'text', target: 'hl7v2-to-fhir-1', targetHandle: 'message' };
    const r = s.getState().connect(c);
    expect(r).toMatchObject({ ok: false, problem: expect.stringContaining('takes a parsed HL7 v2 message (hl7v2-message)') });
    expect(r.ok ? null : r.fix).toMatchObject({ kind: 'converter', types: [{ id: 'hl7v2-parse' }] });
    expect(s.getState().insertConverter(c, 'hl7v2-parse')).toBe('hl7v2-parse-1');
    expect(currentDefinition(s.getState()).connections).toMatchObject([
      { source: 'manual-trigger-1', source_port: 'text', target: 'csv-parse-1' },
      { source: 'hl7v2-parse-1', source_port: 'message', target: 'hl7v2-to-fhir-1', target_port: 'message' },
      { source: 'manual-trigger-1', source_port: 'text', target: 'hl7v2-parse-1', target_port: 'text' },
    ]);
    // straight from the trigger's event: the parser is offered, fed by the trigger's text field
    s.getState().addNode('hl7v2-to-fhir', { x: 600, y: 300 });
    const fromEvent = { source: 'manual-trigger-1', sourceHandle: 'event', target: 'hl7v2-to-fhir-2', targetHandle: 'message' };
    const refused = s.getState().connect(fromEvent);
    expect(refused.ok ? null : refused.fix).toMatchObject({ kind: 'converter', from: 'text', types: [{ id: 'hl7v2-parse' }] });
    s.getState().insertConverter(fromEvent, 'hl7v2-parse');
    expect(s.getState().nodes.find((n) => n.id === 'manual-trigger-1')!.data.config).toEqual({ fields: { text: 'text' } });
    expect(currentDefinition(s.getState()).connections.slice(-2)).toMatchObject([
      { source: 'hl7v2-parse-2', source_port: 'message', target: 'hl7v2-to-fhir-2' },
      { source: 'manual-trigger-1', source_port: 'text', target: 'hl7v2-parse-2', target_port: 'text' },
    ]);
  });

  it('undoes and redoes, and typing in one field is one undo step', () => {
    const s = makeStore();
    s.getState().addNode('pipeline-output', { x: 0, y: 0 });
    for (const name of ['R', 'Re', 'Res']) s.getState().updateNode('pipeline-output-1', { name }, 'name');
    expect(s.getState().nodes[0]!.data.name).toBe('Res');
    s.getState().undo();
    expect(s.getState().nodes[0]!.data.name).toBeUndefined();
    s.getState().undo();
    expect(s.getState().nodes).toHaveLength(0);
    s.getState().redo();
    s.getState().redo();
    expect(s.getState().nodes[0]!.data.name).toBe('Res');
  });

  it('pastes copies with new ids, rewired among themselves', () => {
    const s = makeStore();
    s.getState().addNode('manual-trigger', { x: 0, y: 0 });
    s.getState().addNode('pipeline-output', { x: 300, y: 0 });
    s.getState().connect({ source: 'manual-trigger-1', sourceHandle: 'event', target: 'pipeline-output-1', targetHandle: 'value' });
    s.setState({ nodes: s.getState().nodes.map((n) => ({ ...n, selected: true })) });
    expect(s.getState().copy()).toBe(2);
    expect(s.getState().paste()).toBe(2);
    const def = currentDefinition(s.getState());
    expect(def.nodes.map((n) => n.id)).toEqual(['manual-trigger-1', 'pipeline-output-1', 'manual-trigger-2', 'pipeline-output-2']);
    expect(def.nodes[2]!.position).toEqual({ x: 40, y: 40 });
    expect(def.connections.map((c) => `${c.source}>${c.target}`)).toEqual(['manual-trigger-1>pipeline-output-1', 'manual-trigger-2>pipeline-output-2']);
  });

  it('duplicates the selection beside itself, connections included, leaving the clipboard and undo intact', () => {
    const s = makeStore();
    s.getState().addNode('manual-trigger', { x: 0, y: 0 });
    s.getState().addNode('pipeline-output', { x: 300, y: 0 });
    s.getState().connect({ source: 'manual-trigger-1', sourceHandle: 'event', target: 'pipeline-output-1', targetHandle: 'value' });
    s.setState({ nodes: s.getState().nodes.map((n) => ({ ...n, selected: false })) });
    expect(s.getState().duplicate()).toBe(0); // nothing selected
    s.setState({ nodes: s.getState().nodes.map((n) => ({ ...n, selected: n.id === 'pipeline-output-1' })) });
    expect(s.getState().duplicate()).toBe(1);
    const def = currentDefinition(s.getState());
    expect(def.nodes.map((n) => n.id)).toEqual(['manual-trigger-1', 'pipeline-output-1', 'pipeline-output-2']);
    expect(def.nodes[2]!.position).toEqual({ x: 340, y: 40 });
    expect(def.connections).toHaveLength(1); // its connection to an unselected node is not copied
    expect(
      s
        .getState()
        .nodes.filter((n) => n.selected)
        .map((n) => n.id),
    ).toEqual(['pipeline-output-2']);
    expect(s.getState().clipboard).toBeNull();
    s.getState().undo();
    expect(currentDefinition(s.getState()).nodes).toHaveLength(2);
  });

  it('copies, pastes and duplicates selected sticky notes with the nodes: new ids, offset like the nodes, one undo step', () => {
    const s = makeStore();
    s.getState().addNode('manual-trigger', { x: 0, y: 0 });
    s.getState().addNote({ x: 0, y: 200 });
    s.getState().updateNote('note:note-1', { text: 'Explains the trigger', color: 'blue' });
    s.getState().addNote({ x: 600, y: 600 }); // not selected below: not copied
    s.setState({
      nodes: s.getState().nodes.map((n) => ({ ...n, selected: true })),
      notes: s.getState().notes.map((n) => ({ ...n, selected: n.id === 'note:note-1' })),
    });
    expect(s.getState().copy()).toBe(2);
    expect(s.getState().paste()).toBe(2);
    let def = currentDefinition(s.getState());
    expect(def.nodes.map((n) => [n.id, n.position])).toEqual([
      ['manual-trigger-1', { x: 0, y: 0 }],
      ['manual-trigger-2', { x: 40, y: 40 }],
    ]);
    expect(def.notes!.map((n) => [n.id, n.text, n.color, n.position])).toEqual([
      ['note-1', 'Explains the trigger', 'blue', { x: 0, y: 200 }],
      ['note-2', '', 'yellow', { x: 600, y: 600 }],
      ['note-3', 'Explains the trigger', 'blue', { x: 40, y: 240 }],
    ]);
    // the pasted copies are the selection: duplicating them copies them again
    expect(
      s
        .getState()
        .notes.filter((n) => n.selected)
        .map((n) => n.id),
    ).toEqual(['note:note-3']);
    expect(s.getState().duplicate()).toBe(2);
    def = currentDefinition(s.getState());
    expect(def.notes!.at(-1)).toMatchObject({ id: 'note-4', text: 'Explains the trigger', position: { x: 80, y: 280 } });
    // pasted at a point: the copied group's top-left corner goes there
    expect(s.getState().paste({ x: 1000, y: 1000 })).toBe(2);
    def = currentDefinition(s.getState());
    expect(def.nodes.at(-1)!.position).toEqual({ x: 1000, y: 1000 });
    expect(def.notes!.at(-1)!.position).toEqual({ x: 1000, y: 1200 });
    s.getState().undo();
    s.getState().undo();
    s.getState().undo();
    expect(currentDefinition(s.getState()).notes!.map((n) => n.id)).toEqual(['note-1', 'note-2']);
  });

  it('copies notes alone; selecting a note (a right-click) makes it the only thing selected', () => {
    const s = makeStore();
    s.getState().addNote({ x: 0, y: 0 });
    expect(s.getState().copy()).toBe(1);
    expect(s.getState().paste()).toBe(1);
    expect(currentDefinition(s.getState()).notes!.map((n) => n.id)).toEqual(['note-1', 'note-2']);
    s.getState().addNode('pipeline-output', { x: 400, y: 0 });
    s.getState().select('note:note-1');
    expect([...s.getState().nodes, ...s.getState().notes].filter((n) => n.selected).map((n) => n.id)).toEqual(['note:note-1']);
    expect(s.getState().duplicate()).toBe(1);
    expect(currentDefinition(s.getState()).notes!.map((n) => n.id)).toEqual(['note-1', 'note-2', 'note-3']);
  });

  it('disables the selected nodes, enables them when all are disabled, each toggle one undo step', () => {
    const s = makeStore();
    s.getState().addNode('csv-parse', { x: 0, y: 0 });
    s.getState().addNode('pipeline-output', { x: 300, y: 0 });
    const disabled = () =>
      currentDefinition(s.getState())
        .nodes.filter((n) => n.disabled)
        .map((n) => n.id);
    s.setState({ nodes: s.getState().nodes.map((n) => ({ ...n, selected: n.id === 'csv-parse-1' })) });
    expect(s.getState().toggleDisabled()).toBe(1);
    expect(disabled()).toEqual(['csv-parse-1']);
    s.setState({ nodes: s.getState().nodes.map((n) => ({ ...n, selected: true })) });
    s.getState().toggleDisabled(); // one of them was enabled: both disabled
    expect(disabled()).toEqual(['csv-parse-1', 'pipeline-output-1']);
    s.getState().toggleDisabled();
    expect(disabled()).toEqual([]);
    expect(currentDefinition(s.getState()).nodes[0]).not.toHaveProperty('disabled');
    s.getState().undo();
    expect(disabled()).toEqual(['csv-parse-1', 'pipeline-output-1']);
  });

  it('knows when the canvas differs from the saved version', () => {
    const s = makeStore();
    expect(dirty(s)).toBe(false);
    s.getState().addNode('pipeline-output', { x: 0, y: 0 });
    expect(dirty(s)).toBe(true);
    s.getState().markSaved(currentDefinition(s.getState()), 2);
    expect(dirty(s)).toBe(false);
    expect(s.getState().baseVersion).toBe(2);
  });

  it('loading another definition starts history over, clears the run state and fits the view', () => {
    const s = makeStore();
    s.getState().addNode('manual-trigger', { x: 0, y: 0 });
    s.getState().setRun({ 'manual-trigger-1': { status: 'completed', duration_ms: 3 } }, 'manual-trigger-1');
    s.getState().setPanel('versions');
    const epoch = s.getState().viewEpoch;
    s.getState().load({ nodes: [{ id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } }], connections: [] } as never, 4);
    const after = s.getState();
    expect(after.past).toEqual([]);
    expect(after.run).toEqual({});
    expect(after.currentNode).toBeNull();
    expect(after.viewEpoch).toBe(epoch + 1);
    expect(after.baseVersion).toBe(4);
    expect(after.panel).toBe('versions'); // the view is not the document's to change
  });

  it('selecting or adding a node shows the node panel', () => {
    const s = makeStore();
    s.getState().setPanel('debug');
    const id = s.getState().addNode('csv-parse', { x: 0, y: 0 })!;
    expect(s.getState().panel).toBe('node');
    s.getState().setPanel('versions');
    s.getState().select(null);
    expect(s.getState().panel).toBe('versions');
    s.getState().select(id);
    expect(s.getState().panel).toBe('node');
  });

  it('an auto-layout that finishes after the user went on editing moves the nodes and keeps the edits', async () => {
    const s = makeStore();
    for (const [type, x] of [
      ['manual-trigger', 600],
      ['jsonata-transform', 300],
      ['pipeline-output', 0],
    ] as const)
      s.getState().addNode(type, { x, y: 0 });
    s.getState().connect({ source: 'manual-trigger-1', sourceHandle: 'event', target: 'jsonata-transform-1', targetHandle: 'input' });
    s.getState().connect({ source: 'jsonata-transform-1', sourceHandle: 'output', target: 'pipeline-output-1', targetHandle: 'value' });
    const asked = s.getState();
    expect(asked.nodes.find((n) => n.selected)?.id).toBe('pipeline-output-1'); // the last one added
    const layout = layoutDocument(asked.nodes, asked.edges, asked.notes);
    // while it runs: another node picked and configured, one added
    s.getState().select('jsonata-transform-1');
    s.getState().updateNode('jsonata-transform-1', { config: { expression: '{"greeting": name}' } }, 'expression');
    s.getState().addNode('csv-parse', { x: 900, y: 400 });
    const picked = s.getState().nodes.find((n) => n.id === 'csv-parse-1')!;
    s.getState().select('jsonata-transform-1');
    const laidOut = await layout;
    s.getState().moveTo(laidOut.nodes, laidOut.notes);
    const after = s.getState();
    const x = (id: string) => after.nodes.find((n) => n.id === id)!.position.x;
    expect(x('manual-trigger-1')).toBeLessThan(x('jsonata-transform-1')); // laid out left to right, the way data flows
    expect(x('jsonata-transform-1')).toBeLessThan(x('pipeline-output-1'));
    expect(after.nodes.filter((n) => n.selected).map((n) => n.id)).toEqual(['jsonata-transform-1']);
    expect(after.nodes.find((n) => n.id === 'jsonata-transform-1')!.data.config).toEqual({ expression: '{"greeting": name}' });
    expect(after.nodes.find((n) => n.id === 'csv-parse-1')!.position).toEqual(picked.position); // not in the layout: where it was put
    expect(after.edges).toHaveLength(2);
    s.getState().undo(); // the layout is one step: the places before it, the edits kept
    expect(s.getState().nodes.find((n) => n.id === 'manual-trigger-1')!.position.x).toBe(600);
    expect(s.getState().nodes.find((n) => n.id === 'jsonata-transform-1')!.data.config).toEqual({ expression: '{"greeting": name}' });
  });
});
