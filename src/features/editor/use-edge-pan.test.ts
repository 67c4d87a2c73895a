import { describe, expect, it } from 'vitest';
import { edgePush } from './use-edge-pan';

describe('edgePush', () => {
  it('is zero away from the edges and grows toward each edge, up to one', () => {
    expect(edgePush(400, 300, 800, 600)).toEqual([0, 0]);
    expect(edgePush(20, 300, 800, 600)).toEqual([-0.5, 0]);
    expect(edgePush(0, 300, 800, 600)).toEqual([-1, 0]);
    expect(edgePush(-30, 300, 800, 600)).toEqual([-1, 0]);
    expect(edgePush(790, 590, 800, 600)).toEqual([0.75, 0.75]);
  });
});
