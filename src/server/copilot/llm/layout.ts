import type { PipelineConnection, PipelineNode } from '@/shared/pipeline';

/**
 * Positions for a model's proposal, on the offline planner's grid (260 × 150): a node's column is its longest
 * path from a node nothing feeds, rows in the order nodes were given. The editor lays a proposal out again (ELK)
 * when it is accepted; this keeps the REST answer readable as it is.
 */
export function layered(nodes: PipelineNode[], connections: PipelineConnection[]): PipelineNode[] {
  const column = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  // longest path by relaxation; at most |nodes| rounds, so a cycle (the validator reports it) cannot loop forever
  for (let round = 0; round < nodes.length; round++) {
    let moved = false;
    for (const c of connections) {
      const from = column.get(c.source);
      const to = column.get(c.target);
      if (from === undefined || to === undefined || to > from) continue;
      column.set(c.target, from + 1);
      moved = true;
    }
    if (!moved) break;
  }
  const rows = new Map<number, number>();
  return nodes.map((n) => {
    const col = column.get(n.id)!;
    const row = rows.get(col) ?? 0;
    rows.set(col, row + 1);
    return { ...n, position: { x: col * 260, y: row * 150 } };
  });
}
