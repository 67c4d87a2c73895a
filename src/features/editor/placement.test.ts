import { describe, expect, it } from 'vitest';
import { freeSpot } from './placement';
import type { FlowNode } from './types';

const at = (id: string, x: number, y: number, height = 120): FlowNode =>
  ({ id, type: 'pipeline', position: { x, y }, measured: { width: 240, height }, data: { nodeType: 'merge', config: {} } }) as FlowNode;

describe('placing a dropped node', () => {
  it('keeps the spot the user chose when it is free', () => {
    expect(freeSpot({ x: 400, y: 32 }, [at('a', 0, 0)])).toEqual({ x: 400, y: 32 });
  });

  it('moves below a node it would cover, and below the next one too, onto the grid', () => {
    const nodes = [at('a', 0, 0, 150), at('b', 0, 176, 100)];
    const spot = freeSpot({ x: 20, y: 10 }, nodes);
    expect(spot).toEqual({ x: 20, y: 304 });
    expect(spot.y % 16).toBe(0);
  });
});
