import { describe, expect, it } from 'vitest';
import { notesAfterLayout } from './notes-layout';
import type { FlowNode, NoteNode } from './types';

const node = (id: string, x: number, y: number): FlowNode => ({ id, type: 'pipeline', position: { x, y }, data: { nodeType: 'pipeline-output', config: {} } });
const note = (id: string, x: number, y: number): NoteNode => ({
  id: `note:${id}`,
  type: 'note',
  position: { x, y },
  width: 240,
  height: 160,
  data: { text: id, color: 'yellow' },
});

describe('notesAfterLayout', () => {
  //  before:  [a]@0,0   [b]@0,400            after:  [a]@0,0   [b]@400,0
  //           note beside b (b.x+300, b.y)           → note beside b again, at 700,0
  it('moves a note with the node nearest to it, keeping its offset', () => {
    const before = [node('a', 0, 0), node('b', 0, 400)];
    const after = [node('a', 0, 0), node('b', 400, 0)];
    const [n] = notesAfterLayout([note('n', 300, 400)], before, after);
    expect(n!.position).toEqual({ x: 700, y: 0 });
  });

  //  after layout b lands where the note sat (kept offset from a): the note moves below b
  it('moves a note that would cover a node down past it', () => {
    const before = [node('a', 0, 0), node('b', 0, 1000)];
    const after = [node('a', 0, 0), node('b', 300, 0)];
    const [n] = notesAfterLayout([note('n', 300, 0)], before, after);
    expect(n!.position.x).toBe(300);
    expect(n!.position.y).toBeGreaterThanOrEqual(110 + 16);
  });

  it('keeps two notes beside one node apart', () => {
    const before = [node('a', 0, 0)];
    const after = [node('a', 0, 0)];
    const [first, second] = notesAfterLayout([note('n1', 300, 0), note('n2', 300, 0)], before, after);
    expect(first!.position).toEqual({ x: 300, y: 0 });
    expect(second!.position.y).toBeGreaterThanOrEqual(160);
  });

  it('leaves notes alone when there are no nodes', () => {
    const notes = [note('n', 5, 5)];
    expect(notesAfterLayout(notes, [], [])).toBe(notes);
  });
});
