import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react';
import type { RouterOutputs } from '@/trpc/react';
import { connectionId, toFlow, uniqueNodeId } from '../definition';
import type { FlowEdge, FlowNode } from '../types';
import type { EditorSlice } from './index';

export type CopilotProposal = RouterOutputs['copilot']['generate'];
export type CopilotReport = RouterOutputs['copilot']['validatePipeline'];

/** Ids of the proposal's nodes on the canvas: apart from the document's, so nothing of the document applies to them. */
export const PROPOSED = 'proposed:';
export const isProposed = (id: string) => id.startsWith(PROPOSED);

/** A proposal drawn on the canvas: the copilot's answer and its graph, not (yet) part of the document. */
export interface Preview {
  result: CopilotProposal;
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/** The copilot's proposal on preview, the describe box, and its last review of the canvas. */
export interface CopilotSlice {
  preview: Preview | null;
  /** The describe box over a canvas that has nodes (on an empty canvas it shows anyway). */
  describing: boolean;
  /** The copilot's last check of the canvas, and the canvas it checked (a key: stale once the canvas changed). */
  review: { report: CopilotReport; key: string } | null;
  setDescribing(open: boolean): void;
  propose(result: CopilotProposal, laidOut: (nodes: FlowNode[], edges: FlowEdge[]) => Promise<FlowNode[]>): Promise<void>;
  onPreviewNodesChange(changes: NodeChange<FlowNode>[]): void;
  onPreviewEdgesChange(changes: EdgeChange<FlowEdge>[]): void;
  /** Puts the proposal into the document as one undo step; the ids of the added nodes. */
  acceptPreview(): string[];
  discardPreview(): void;
  setReview(review: CopilotSlice['review']): void;
}

const PROPOSED_EDGE = { animated: true, selectable: false, deletable: false, focusable: false, style: { strokeWidth: 2, stroke: '#7c3aed', strokeDasharray: '6 4' } };

/** The proposal as preview nodes and edges: prefixed ids, not draggable, not selectable, marked proposed. */
function previewGraph(result: CopilotProposal): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const flow = toFlow({ nodes: result.pipeline.nodes, connections: result.pipeline.connections });
  return {
    nodes: flow.nodes.map((n) => ({ ...n, id: PROPOSED + n.id, draggable: false, selectable: false, deletable: false, connectable: false, focusable: false, data: { ...n.data, proposed: true } })),
    edges: flow.edges.map((e) => ({ ...e, id: PROPOSED + e.id, source: PROPOSED + e.source, target: PROPOSED + e.target, ...PROPOSED_EDGE })),
  };
}

export const copilotSlice: EditorSlice<CopilotSlice> = (set, get) => ({
  preview: null,
  describing: false,
  review: null,
  setDescribing(describing) {
    set({ describing });
  },
  async propose(result, laidOut) {
    const graph = previewGraph(result);
    const placed = await laidOut(graph.nodes, graph.edges).catch(() => graph.nodes);
    // beside a pipeline already on the canvas: below it, from its left edge
    const existing = get().nodes;
    let nodes = placed;
    if (existing.length && placed.length) {
      const left = Math.min(...existing.map((n) => n.position.x));
      const bottom = Math.max(...existing.map((n) => n.position.y + (n.measured?.height ?? 110)));
      const minX = Math.min(...placed.map((n) => n.position.x));
      const minY = Math.min(...placed.map((n) => n.position.y));
      nodes = placed.map((n) => ({ ...n, position: { x: n.position.x - minX + left, y: n.position.y - minY + bottom + 120 } }));
    }
    // the canvas fits it into view once its nodes are measured
    set({ preview: { result, nodes, edges: graph.edges }, describing: false });
  },
  onPreviewNodesChange(changes) {
    const preview = get().preview;
    if (preview) set({ preview: { ...preview, nodes: applyNodeChanges(changes, preview.nodes) } });
  },
  onPreviewEdgesChange(changes) {
    const preview = get().preview;
    if (preview) set({ preview: { ...preview, edges: applyEdgeChanges(changes, preview.edges) } });
  },
  acceptPreview() {
    const { preview, nodes, edges } = get();
    if (!preview) return [];
    // the planner's ids where free, else the next free one of the type
    const taken = new Set(nodes.map((n) => n.id));
    const rename = new Map<string, string>();
    const added: FlowNode[] = preview.nodes.map((n) => {
      const own = n.id.slice(PROPOSED.length);
      const id = taken.has(own) ? uniqueNodeId(n.data.nodeType, taken) : own;
      taken.add(id);
      rename.set(n.id, id);
      const { proposed: _proposed, ...data } = n.data;
      return { id, type: 'pipeline', position: n.position, ...(n.measured ? { measured: n.measured } : {}), data };
    });
    const addedEdges: FlowEdge[] = preview.edges.map((e) => {
      const c = { source: rename.get(e.source)!, source_port: e.sourceHandle ?? '', target: rename.get(e.target)!, target_port: e.targetHandle ?? '' };
      return { id: connectionId(c), source: c.source, target: c.target, sourceHandle: e.sourceHandle, targetHandle: e.targetHandle, ...(e.data ? { data: e.data } : {}) };
    });
    set({ preview: null });
    get().setGraph(
      [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...added],
      [...edges, ...addedEdges],
    );
    get().fitView();
    return added.map((n) => n.id);
  },
  discardPreview() {
    set({ preview: null });
  },
  setReview(review) {
    set({ review });
  },
});
