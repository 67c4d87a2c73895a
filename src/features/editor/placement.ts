import { GRID } from './constants';
import type { FlowNode } from './types';

/** A node card's width (w-60) and the height assumed for one not measured yet. */
const NODE_WIDTH = 240;
const DEFAULT_HEIGHT = 120;
const GAP = GRID;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a node card is and how big (measured, or as assumed until it is). */
export function boxOf(n: FlowNode): Box {
  return { x: n.position.x, y: n.position.y, width: n.measured?.width ?? NODE_WIDTH, height: n.measured?.height ?? DEFAULT_HEIGHT };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;
}

/** `box` moved down, past each box of `others` it would come near, onto the grid, until it is clear of them all. */
export function clearBelow(box: Box, others: Box[]): Box {
  const spot = { ...box };
  for (let i = 0; i <= others.length; i++) {
    const hit = others.find((o) => overlaps(spot, o));
    if (!hit) break;
    spot.y = Math.ceil((hit.y + hit.height + GAP) / GRID) * GRID;
  }
  return spot;
}

/**
 * Where a new node can go at or below `wanted` without covering another: moved down, past each node
 * it would overlap, onto the grid.
 */
export function freeSpot(wanted: { x: number; y: number }, nodes: FlowNode[]): { x: number; y: number } {
  const spot = clearBelow({ ...wanted, width: NODE_WIDTH, height: DEFAULT_HEIGHT }, nodes.map(boxOf));
  return { x: spot.x, y: spot.y };
}
