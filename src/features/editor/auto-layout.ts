import type { ElkNode } from 'elkjs/lib/elk-api';
import { GRID } from './constants';
import { notesAfterLayout } from './notes-layout';
import type { FlowEdge, FlowNode, NoteNode } from './types';

/**
 * Layered left→right layout (ELK), the way data flows: triggers left, outputs right. Ports keep their
 * order so connections do not cross inside a node.
 */
export async function autoLayout(nodes: FlowNode[], edges: FlowEdge[]): Promise<FlowNode[]> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const elk = new ELK();
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '96',
      'elk.spacing.nodeNode': '48',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.crossingMinimization.semiInteractive': 'true',
    },
    children: nodes.map((n) => ({
      id: n.id,
      width: n.measured?.width ?? 240,
      height: n.measured?.height ?? 110,
      // keeps nodes that already sit higher on the canvas higher in the result
      layoutOptions: { 'elk.position': `(${Math.round(n.position.x)}, ${Math.round(n.position.y)})` },
    })),
    edges: edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  };
  const result = await elk.layout(graph);
  const at = new Map((result.children ?? []).map((c) => [c.id, c]));
  return nodes.map((n) => {
    const c = at.get(n.id);
    if (c?.x === undefined || c.y === undefined) return n;
    return { ...n, position: { x: Math.round(c.x / GRID) * GRID, y: Math.round(c.y / GRID) * GRID } };
  });
}

/** The document laid out: the nodes by `autoLayout`, the sticky notes after them (see notesAfterLayout for the rule). */
export async function layoutDocument(nodes: FlowNode[], edges: FlowEdge[], notes: NoteNode[]): Promise<{ nodes: FlowNode[]; notes: NoteNode[] }> {
  const laidOut = await autoLayout(nodes, edges);
  return { nodes: laidOut, notes: notesAfterLayout(notes, nodes, laidOut) };
}
