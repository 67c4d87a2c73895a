import { describe, expect, it } from 'vitest';
import { PipelineDefinition } from '@/shared/pipeline';
import { canonical, savedKeyOf, toDefinition, toFlow, type Definition } from './definition';
import { createEditorStore, currentDefinition } from './store';
import { CATALOG } from './test-catalog';

// in ──event──▶ out, with two sticky notes beside it
const withNotes: Definition = {
  nodes: [
    { id: 'in', type: 'manual-trigger', config: {}, position: { x: 0, y: 0 } },
    { id: 'out', type: 'pipeline-output', config: {}, position: { x: 320, y: 0 } },
  ],
  connections: [{ id: 'in.event->out.value', source: 'in', source_port: 'event', target: 'out', target_port: 'value' }],
  notes: [
    { id: 'note-1', text: '# Intake\nParses **ADT** messages', position: { x: -16, y: 160 }, width: 320, height: 180, color: 'blue' },
    { id: 'note-2', text: '', position: { x: 400, y: 160 }, width: 240, height: 160, color: 'yellow', author: 'kept as it was' },
  ],
};

describe('definition ⇄ canvas with sticky notes', () => {
  it('round-trips notes: text, place, size, colour and fields the editor does not manage', () => {
    const flow = toFlow(withNotes);
    expect(flow.nodes.map((n) => n.id)).toEqual(['in', 'out']);
    expect(flow.notes.map((n) => [n.id, n.type, n.width, n.height])).toEqual([
      ['note:note-1', 'note', 320, 180],
      ['note:note-2', 'note', 240, 160],
    ]);
    expect(toDefinition(flow.nodes, flow.edges, flow.notes)).toEqual(withNotes);
  });

  it('keeps notes out of the pipeline nodes, and a definition without notes has no notes key', () => {
    const flow = toFlow({ nodes: withNotes.nodes, connections: withNotes.connections });
    expect(flow.notes).toEqual([]);
    expect(toDefinition(flow.nodes, flow.edges, flow.notes)).not.toHaveProperty('notes');
    expect(toDefinition(flow.nodes, flow.edges, toFlow(withNotes).notes).nodes.map((n) => n.id)).toEqual(['in', 'out']);
  });

  it('reads notes a REST client sent with only an id (the schema fills in the rest) as saved', () => {
    const parsed = PipelineDefinition.parse({ nodes: [], connections: [], notes: [{ id: 'n' }] });
    expect(parsed.notes).toEqual([{ id: 'n', text: '', position: { x: 0, y: 0 }, width: 240, height: 160, color: 'yellow' }]);
    const s = createEditorStore({ pipelineId: 'p', catalog: CATALOG, definition: parsed, saved: parsed, baseVersion: 1, runInputs: '{}' });
    expect(canonical(currentDefinition(s.getState()))).toBe(savedKeyOf(parsed));
  });

  it('refuses two notes with one id and an unknown colour', () => {
    const twice = PipelineDefinition.safeParse({ nodes: [], connections: [], notes: [{ id: 'a' }, { id: 'a' }] });
    expect(twice.error?.issues.map((i) => i.message)).toEqual(['duplicate note id "a"']);
    expect(PipelineDefinition.safeParse({ nodes: [], connections: [], notes: [{ id: 'a', color: 'plaid' }] }).success).toBe(false);
  });
});

describe('sticky notes in the editor store', () => {
  const make = () => createEditorStore({ pipelineId: 'p', catalog: CATALOG, definition: withNotes, saved: withNotes, baseVersion: 1, runInputs: '{}' });

  it('adds, edits and removes notes as undoable changes that make the canvas unsaved', () => {
    const s = make();
    const id = s.getState().addNote({ x: 48, y: 400 });
    expect(id).toBe('note:note-3');
    expect(s.getState().editingNote).toBe(id);
    s.getState().updateNote(id, { text: 'Check' }, 'text');
    s.getState().updateNote(id, { text: 'Check *this*' }, 'text');
    s.getState().updateNote(id, { color: 'pink' });
    const saved = currentDefinition(s.getState());
    expect(saved.notes?.at(-1)).toEqual({ id: 'note-3', text: 'Check *this*', position: { x: 48, y: 400 }, width: 240, height: 160, color: 'pink' });
    expect(canonical(saved)).not.toBe(s.getState().savedKey);
    s.getState().undo(); // the colour
    s.getState().undo(); // the typing, one step
    expect(currentDefinition(s.getState()).notes?.at(-1)?.text).toBe('');
    s.getState().removeNote('note:note-1');
    expect(currentDefinition(s.getState()).notes?.map((n) => n.id)).toEqual(['note-2', 'note-3']);
    s.getState().undo();
    expect(currentDefinition(s.getState()).notes?.map((n) => n.id)).toEqual(['note-1', 'note-2', 'note-3']);
  });

  it('selects all nodes and notes; selecting a node leaves no note selected', () => {
    const s = make();
    s.getState().selectAll();
    expect([...s.getState().nodes, ...s.getState().notes].every((n) => n.selected)).toBe(true);
    s.getState().select('in');
    expect(s.getState().notes.some((n) => n.selected)).toBe(false);
    expect(
      s
        .getState()
        .nodes.filter((n) => n.selected)
        .map((n) => n.id),
    ).toEqual(['in']);
  });

  it('pastes copied nodes and notes with their top-left corner at a point', () => {
    const s = make();
    s.getState().selectAll();
    s.getState().copy();
    expect(s.getState().paste({ x: 1000, y: 500 })).toBe(4);
    // the group's top-left corner is note-1's left edge (x -16) and the nodes' top (y 0)
    expect(
      s
        .getState()
        .nodes.filter((n) => n.selected)
        .map((n) => n.position),
    ).toEqual([
      { x: 1016, y: 500 },
      { x: 1336, y: 500 },
    ]);
    expect(
      s
        .getState()
        .notes.filter((n) => n.selected)
        .map((n) => [n.id, n.position]),
    ).toEqual([
      ['note:note-3', { x: 1000, y: 660 }],
      ['note:note-4', { x: 1416, y: 660 }],
    ]);
  });
});
