import { NOTE_SIZE } from './definition';
import { type Box, boxOf as nodeBox, clearBelow } from './placement';
import type { FlowNode, NoteNode } from './types';

const noteBox = (n: NoteNode): Box => ({
  ...n.position,
  width: n.width ?? n.measured?.width ?? NOTE_SIZE.width,
  height: n.height ?? n.measured?.height ?? NOTE_SIZE.height,
});

/** Distance between two boxes' edges (0 when they touch or overlap). */
function gap(a: Box, b: Box): number {
  const dx = Math.max(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
  const dy = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
  return Math.hypot(dx, dy);
}

/**
 * Where sticky notes go when the nodes are laid out again (auto-layout). The rule: a note belongs to the node
 * nearest to it before the layout (edge to edge, so a note on top of or beside a node belongs to that node) and
 * keeps its offset from that node, so a comment stays beside what it explains. A note that would then cover a
 * node or a note already placed moves down, past what it covers, until it covers nothing; notes are placed in
 * their order, so the first keeps its offset. Without nodes the notes stay where they are.
 */
export function notesAfterLayout(notes: NoteNode[], before: FlowNode[], after: FlowNode[]): NoteNode[] {
  if (notes.length === 0 || before.length === 0) return notes;
  const moved = new Map(after.map((n) => [n.id, n]));
  const nodeBoxes = after.map(nodeBox);
  const placed: Box[] = [];
  return notes.map((note) => {
    const box = noteBox(note);
    let nearest = before[0]!;
    let best = Infinity;
    for (const n of before) {
      const d = gap(box, nodeBox(n));
      if (d < best) [best, nearest] = [d, n];
    }
    const to = moved.get(nearest.id)?.position ?? nearest.position;
    const spot = clearBelow({ ...box, x: to.x + (box.x - nearest.position.x), y: to.y + (box.y - nearest.position.y) }, [...nodeBoxes, ...placed]);
    placed.push(spot);
    return spot.x === note.position.x && spot.y === note.position.y ? note : { ...note, position: { x: spot.x, y: spot.y } };
  });
}
