import { canonical, connectionId, toDefinition, toFlow, type Definition } from './definition';
import type { FlowEdge, FlowNode, PipelineNodeData } from './types';

/** What a connection joins, as a key: edges compare by it whatever their ids. */
export const edgeKey = (e: Pick<FlowEdge, 'source' | 'target' | 'sourceHandle' | 'targetHandle'>) =>
  connectionId({ source: e.source, source_port: e.sourceHandle ?? '', target: e.target, target_port: e.targetHandle ?? '' });

/** What the definition keeps of a node, its position aside. */
function meaning(n: FlowNode): string {
  const { position: _position, ...rest } = toDefinition([n], []).nodes[0]!;
  return canonical(rest);
}

/** A change to the canvas, as the copilot proposes it: nodes added, changed (their new data) and removed, connections added and removed. */
export interface GraphChange {
  addedNodes: FlowNode[];
  addedEdges: FlowEdge[];
  changed: Record<string, PipelineNodeData>;
  removedNodes: string[];
  /** Keys (edgeKey) of the canvas's connections the change takes away. */
  removedEdges: string[];
  /** The canvas's nodes that stay as they are but whose connections the change adds or takes away. */
  rewired: string[];
  /** Where the change puts the canvas's nodes it moves to make room (the planner shifts what follows an added step). */
  moved: Record<string, { x: number; y: number }>;
}

/**
 * How `next` differs from the canvas's nodes and edges. Positions aside (the canvas keeps its own), except where the
 * planner moved a node to make room: given the definition it planned on (`base`), a node it placed elsewhere moves.
 */
export function diffGraph(nodes: FlowNode[], edges: FlowEdge[], next: Definition, base?: Definition): GraphChange {
  const flow = toFlow(next);
  const now = new Map(nodes.map((n) => [n.id, n]));
  const after = new Set(flow.nodes.map((n) => n.id));
  const changed: Record<string, PipelineNodeData> = {};
  for (const n of flow.nodes) {
    const was = now.get(n.id);
    if (was && meaning(was) !== meaning(n)) changed[n.id] = n.data;
  }
  const edgesNow = new Set(edges.map(edgeKey));
  const edgesAfter = new Set(flow.edges.map(edgeKey));
  const addedEdges = flow.edges.filter((e) => !edgesNow.has(edgeKey(e)));
  const removed = edges.filter((e) => !edgesAfter.has(edgeKey(e)));
  const removedNodes = nodes.filter((n) => !after.has(n.id)).map((n) => n.id);
  const touched = new Set([...addedEdges, ...removed].flatMap((e) => [e.source, e.target]));
  return {
    addedNodes: flow.nodes.filter((n) => !now.has(n.id)),
    addedEdges,
    changed,
    removedNodes,
    removedEdges: removed.map(edgeKey),
    rewired: nodes.map((n) => n.id).filter((id) => touched.has(id) && after.has(id) && !changed[id]),
    moved: Object.fromEntries(
      flow.nodes.flatMap((n) => {
        const was = base?.nodes.find((b) => b.id === n.id);
        return was && now.has(n.id) && (was.position.x !== n.position.x || was.position.y !== n.position.y) ? [[n.id, n.position]] : [];
      }),
    ),
  };
}

export const isEmptyChange = (c: GraphChange) =>
  !c.addedNodes.length && !c.addedEdges.length && !Object.keys(c.changed).length && !c.removedNodes.length && !c.removedEdges.length;
