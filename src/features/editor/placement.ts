import { GRID } from './constants';
import type { FlowNode } from './types';

/** A node card's width (w-60) and the height assumed for one not measured yet. */
const NODE_WIDTH = 240;
const DEFAULT_HEIGHT = 120;
const GAP = GRID;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function boxOf(n: FlowNode): Box {
  return { x: n.position.x, y: n.position.y, width: n.measured?.width ?? NODE_WIDTH, height: n.measured?.height ?? DEFAULT_HEIGHT };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;
}

/**
 * Where a new node can go at or below `wanted` without covering another: moved down, past each node
 * it would overlap, onto the grid.
 */
export function freeSpot(wanted: { x: number; y: number }, nodes: FlowNode[]): { x: number; y: number } {
  const spot = { ...wanted };
  const boxes = nodes.map(boxOf);
  for (let i = 0; i <= boxes.length; i++) {
    const hit = boxes.find((b) => overlaps({ ...spot, width: NODE_WIDTH, height: DEFAULT_HEIGHT }, b));
    if (!hit) return spot;
    spot.y = Math.ceil((hit.y + hit.height + GAP) / GRID) * GRID;
  }
  return spot;
}
