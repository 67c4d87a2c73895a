import { describe, expect, it } from 'vitest';
import { createEditorStore, currentDefinition } from './store';
import { CATALOG } from './test-catalog';
import type { Definition } from './definition';

/*
 * The canvas:   start ──text→ out
 * The change:   start ──text→ clean ──text→ out    (clean added on the connection; out's config changed)
 */
const canvas = {
  nodes: [
    { id: 'start', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 400, y: 0 } },
  ],
  connections: [{ source: 'start', source_port: 'text', target: 'out', target_port: 'value' }],
} as Definition;

const changed = {
  nodes: [
    { id: 'start', type: 'manual-trigger', config: { fields: { text: 'text' } }, position: { x: 0, y: 0 } },
    { id: 'clean', type: 'pipeline-output', config: {}, position: { x: 200, y: 120 } },
    { id: 'out', type: 'pipeline-output', config: { name: 'result' }, position: { x: 400, y: 0 } },
  ],
  connections: [
    { source: 'start', source_port: 'text', target: 'clean', target_port: 'value' },
    { source: 'clean', source_port: 'value', target: 'out', target_port: 'value' },
  ],
} as Definition;

const about = { name: 'Change', validation: { valid: true, errors: [], warnings: [] }, reasoning: ['added clean'], unresolved: [] };

function makeStore(def: Definition) {
  return createEditorStore({ pipelineId: 'p1', catalog: CATALOG, definition: def, saved: def, baseVersion: 1, runInputs: '{}' });
}

describe('a change the copilot proposes to the canvas', () => {
  it('is previewed as what it adds, changes and removes, leaving the document alone', () => {
    const s = makeStore(canvas);
    expect(s.getState().proposeChange(changed, about)).toBe(true);
    const p = s.getState().preview!;
    expect(p.nodes.map((n) => [n.id, n.data.proposed])).toEqual([['proposed:clean', true]]);
    // new connections end at the document's own nodes as they are, at the added one by its preview id
    expect(p.edges.map((e) => [e.source, e.target])).toEqual([
      ['start', 'proposed:clean'],
      ['proposed:clean', 'out'],
    ]);
    expect(Object.keys(p.change!.changed)).toEqual(['out']);
    expect(p.change!.removedEdges).toEqual(['start.text->out.value']);
    expect(p.change!.removedNodes).toEqual([]);
    expect(currentDefinition(s.getState())).toEqual(currentDefinition(makeStore(canvas).getState()));
  });

  it('marks the nodes it rewires, and moves those the planner moved to make room (from the canvas it planned on)', () => {
    const s = makeStore(canvas);
    const moved = { ...changed, nodes: changed.nodes.map((n) => (n.id === 'out' ? { ...n, position: { x: 660, y: 0 } } : n)) };
    s.getState().proposeChange(moved, about, canvas);
    expect(s.getState().preview!.change).toMatchObject({ rewired: ['start'], moved: { out: { x: 660, y: 0 } } });
    s.getState().acceptPreview();
    expect(currentDefinition(s.getState()).nodes.find((n) => n.id === 'out')?.position).toEqual({ x: 660, y: 0 });
    // without the canvas it planned on, the canvas keeps its own positions
    const t = makeStore(canvas);
    t.getState().proposeChange(moved, about);
    expect(t.getState().preview!.change!.moved).toEqual({});
  });

  it('is made as one undo step when accepted, the canvas keeping its own positions', () => {
    const s = makeStore(canvas);
    s.getState().setGraph(
      s.getState().nodes.map((n) => (n.id === 'out' ? { ...n, position: { x: 800, y: 40 } } : n)),
      s.getState().edges,
    );
    s.getState().proposeChange(changed, about);
    s.getState().acceptPreview();
    const def = currentDefinition(s.getState());
    expect(def.nodes.map((n) => n.id)).toEqual(['start', 'out', 'clean']);
    expect(def.nodes.find((n) => n.id === 'out')).toMatchObject({ config: { name: 'result' }, position: { x: 800, y: 40 } });
    expect(def.connections.map((c) => `${c.source}->${c.target}`)).toEqual(['start->clean', 'clean->out']);
    expect(s.getState().preview).toBeNull();
    s.getState().undo();
    const back = currentDefinition(s.getState());
    expect(back.nodes.map((n) => n.id)).toEqual(['start', 'out']);
    expect(back.connections.map((c) => `${c.source}->${c.target}`)).toEqual(['start->out']);
  });

  it('is not previewed when it would change nothing', () => {
    const s = makeStore(canvas);
    expect(s.getState().proposeChange(canvas, about)).toBe(false);
    expect(s.getState().preview).toBeNull();
  });

  it('takes away the nodes it removes, with their connections', () => {
    const s = makeStore(changed);
    expect(
      s
        .getState()
        .proposeChange(
          {
            nodes: changed.nodes.filter((n) => n.id !== 'clean'),
            connections: [{ source: 'start', source_port: 'text', target: 'out', target_port: 'value' }],
          },
          about,
        ),
    ).toBe(true);
    expect(s.getState().preview!.change!.removedNodes).toEqual(['clean']);
    s.getState().acceptPreview();
    const def = currentDefinition(s.getState());
    expect(def.nodes.map((n) => n.id)).toEqual(['start', 'out']);
    expect(def.connections.map((c) => `${c.source}->${c.target}`)).toEqual(['start->out']);
  });
});
