import type { PipelineDefinition } from '@/shared/pipeline';

const COL = 260;
const ROW = 150;

/**
 * Places what an edit added where a person would draw it: a column after what feeds it, on that node's row; the
 * nodes after it move right as far as they must. Nodes the edit did not add keep their rows.
 */
export function layoutAdded(before: PipelineDefinition, after: PipelineDefinition): void {
  const old = new Set(before.nodes.map((n) => n.id));
  const byId = new Map(after.nodes.map((n) => [n.id, n]));
  const added = after.nodes.filter((n) => !old.has(n.id));
  if (!added.length && after.nodes.length === before.nodes.length) return;
  const indeg = new Map(after.nodes.map((n) => [n.id, after.connections.filter((c) => c.target === n.id).length]));
  const queue = after.nodes.filter((n) => indeg.get(n.id) === 0).map((n) => n.id);
  const order: string[] = [];
  while (queue.length) {
    const id = queue.shift()!;
    order.push(id);
    for (const c of after.connections.filter((x) => x.source === id)) {
      indeg.set(c.target, indeg.get(c.target)! - 1);
      if (indeg.get(c.target) === 0) queue.push(c.target);
    }
  }
  const moved = new Set<string>();
  for (const id of order) {
    const n = byId.get(id)!;
    const preds = after.connections
      .filter((c) => c.target === id)
      .map((c) => byId.get(c.source)!)
      .filter(Boolean);
    if (!preds.length) continue;
    const minX = Math.max(...preds.map((p) => p.position.x)) + COL;
    if (!old.has(id)) {
      n.position = { x: minX, y: preds[0]!.position.y };
      moved.add(id);
    } else if (n.position.x < minX && preds.some((p) => moved.has(p.id))) {
      n.position = { ...n.position, x: minX };
      moved.add(id);
    }
  }
  for (const n of added) {
    while (after.nodes.some((m) => m !== n && Math.abs(m.position.x - n.position.x) < COL / 2 && Math.abs(m.position.y - n.position.y) < ROW / 2))
      n.position = { ...n.position, y: n.position.y + ROW };
  }
}
