import { describe, expect, it } from 'vitest';
import { diffDefinitions } from './version-diff';

const node = (id: string, type: string, extra: object = {}) => ({ id, type, config: {}, position: { x: 0, y: 0 }, ...extra });

describe('diffDefinitions', () => {
  //  v1: in ─► t ─► out          v2: in ─► t2 ─► out, out renamed
  const v1 = {
    nodes: [node('in', 'manual-trigger'), node('t', 'jsonata-transform', { config: { expression: 'a' } }), node('out', 'pipeline-output')],
    connections: [
      { id: 'c1', source: 'in', source_port: 'event', target: 't', target_port: 'input' },
      { id: 'c2', source: 't', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };
  const v2 = {
    nodes: [node('in', 'manual-trigger', { position: { x: 50, y: 0 } }), node('t2', 'jsonata-transform'), node('out', 'pipeline-output', { name: 'Result' })],
    connections: [
      { id: 'other-id', source: 'in', source_port: 'event', target: 't2', target_port: 'input' },
      { id: 'c9', source: 't2', source_port: 'output', target: 'out', target_port: 'value' },
    ],
  };

  it('lists added, removed and changed nodes and connections', () => {
    const d = diffDefinitions(v1, v2);
    expect(d.nodes.added.map((n) => n.id)).toEqual(['t2']);
    expect(d.nodes.removed.map((n) => n.id)).toEqual(['t']);
    expect(d.nodes.changed.map((c) => [c.id, c.fields])).toEqual([
      ['in', ['position']],
      ['out', ['name']],
    ]);
    expect(d.connections.added.map((c) => c.target)).toEqual(['t2', 'out']);
    expect(d.connections.removed.map((c) => c.target)).toEqual(['t', 'out']);
    expect(d.empty).toBe(false);
  });

  it('matches connections by their endpoints, not their ids, and ignores pure moves', () => {
    const moved = {
      ...v1,
      nodes: v1.nodes.map((n) => ({ ...n, position: { x: 9, y: 9 } })),
      connections: v1.connections.map((c) => ({ ...c, id: `new-${c.id}` })),
    };
    const d = diffDefinitions(v1, moved);
    expect(d.connections).toEqual({ added: [], removed: [] });
    expect(d.empty).toBe(true);
  });

  it('reports config changes', () => {
    const changed = { ...v1, nodes: v1.nodes.map((n) => (n.id === 't' ? { ...n, config: { expression: 'b' } } : n)) };
    expect(diffDefinitions(v1, changed).nodes.changed).toMatchObject([{ id: 't', fields: ['config'] }]);
  });
});

describe('diffDefinitions on sticky notes', () => {
  const note = (id: string, text: string, extra: object = {}) => ({
    id,
    text,
    position: { x: 0, y: 0 },
    width: 240,
    height: 160,
    color: 'yellow' as const,
    ...extra,
  });
  const base = { nodes: [node('in', 'manual-trigger')], connections: [] };

  it('lists notes added, removed and whose text or colour changed, like nodes', () => {
    const a = { ...base, notes: [note('note-1', 'Keep'), note('note-2', 'Old text'), note('note-3', 'Gone')] };
    const b = { ...base, notes: [note('note-1', 'Keep', { color: 'pink' }), note('note-2', 'New text'), note('note-4', '## Added\nbody')] };
    const d = diffDefinitions(a, b);
    expect(d.notes.added.map((n) => n.id)).toEqual(['note-4']);
    expect(d.notes.removed.map((n) => n.id)).toEqual(['note-3']);
    expect(d.notes.changed.map((c) => [c.id, c.fields])).toEqual([
      ['note-1', ['color']],
      ['note-2', ['text']],
    ]);
    expect(d.empty).toBe(false);
  });

  it('counts a note that only moved or was resized as no difference, and a definition without notes as none', () => {
    const a = { ...base, notes: [note('note-1', 'Keep')] };
    const moved = { ...base, notes: [note('note-1', 'Keep', { position: { x: 80, y: 40 }, width: 300 })] };
    const d = diffDefinitions(a, moved);
    expect(d.notes.changed.map((c) => c.fields)).toEqual([['size', 'position']]);
    expect(d.empty).toBe(true);
    expect(diffDefinitions(base, base).notes).toEqual({ added: [], removed: [], changed: [] });
    expect(diffDefinitions(base, a).empty).toBe(false);
  });
});
