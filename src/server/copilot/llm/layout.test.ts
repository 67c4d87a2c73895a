import { describe, expect, it } from 'vitest';
import { layered } from './layout';

const n = (id: string) => ({ id, type: 'code', config: {}, position: { x: 0, y: 0 } });
const c = (source: string, target: string) => ({ source, source_port: 'out', target, target_port: 'in' });

describe("the LLM planner's layout", () => {
  it('puts each node one column after the furthest node feeding it, branches in rows', () => {
    const nodes = layered(
      [n('out'), n('start'), n('a'), n('b'), n('join')],
      [c('start', 'a'), c('start', 'b'), c('a', 'join'), c('b', 'join'), c('join', 'out'), c('start', 'join')],
    );
    const at = Object.fromEntries(nodes.map((x) => [x.id, x.position]));
    expect(at.start).toEqual({ x: 0, y: 0 });
    expect(at.a).toEqual({ x: 260, y: 0 });
    expect(at.b).toEqual({ x: 260, y: 150 });
    expect(at.join!.x).toBe(520);
    expect(at.out!.x).toBe(780);
  });

  it('ends on a cycle (the validator reports it) instead of looping', () => {
    const nodes = layered([n('a'), n('b')], [c('a', 'b'), c('b', 'a')]);
    expect(nodes).toHaveLength(2);
  });
});
