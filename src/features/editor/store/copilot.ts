import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react';
import type { RouterOutputs } from '@/trpc/react';
import { diffGraph, edgeKey, isEmptyChange, type GraphChange } from '../copilot-change';
import { connectionId, toFlow, uniqueNodeId, type Definition } from '../definition';
import type { FlowEdge, FlowNode } from '../types';
import type { EditorSlice } from './index';

/** A proposal to preview: generate/pipeline's answer, or one the chat or a change made (which planner and model, when known). */
export type CopilotProposal = Omit<RouterOutputs['copilot']['generate'], 'model'> & { model?: string };
export type CopilotReport = RouterOutputs['copilot']['validatePipeline'];

/** Ids of the proposal's nodes on the canvas: apart from the document's, so nothing of the document applies to them. */
export const PROPOSED = 'proposed:';
export const isProposed = (id: string) => id.startsWith(PROPOSED);

/** A proposal drawn on the canvas: the copilot's answer and its graph, not (yet) part of the document. */
export interface Preview {
  result: CopilotProposal;
  /** The proposed nodes and edges: a pipeline of its own beside the canvas's, or those a change adds to it. */
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** A change to the canvas's pipeline: what it does to the document's own nodes and connections; null for a pipeline of its own. */
  change: Pick<GraphChange, 'changed' | 'removedNodes' | 'removedEdges' | 'rewired' | 'moved'> | null;
}

/** What the copilot said of a change: its validation, the steps it took, what it could not do. */
export type ChangeAbout = Pick<CopilotProposal, 'validation' | 'reasoning' | 'unresolved'> & { name: string };

/** The copilot's proposal on preview, the describe box, and its last review of the canvas. */
export interface CopilotSlice {
  preview: Preview | null;
  /** The describe box over a canvas that has nodes (on an empty canvas it shows anyway). */
  describing: boolean;
  /** The copilot's last check of the canvas, and the canvas it checked (a key: stale once the canvas changed). */
  review: { report: CopilotReport; key: string } | null;
  setDescribing(open: boolean): void;
  propose(result: CopilotProposal, laidOut: (nodes: FlowNode[], edges: FlowEdge[]) => Promise<FlowNode[]>): Promise<void>;
  /** The canvas's pipeline changed into `next`, previewed (added nodes and edges drawn proposed); false when nothing would change. */
  proposeChange(next: Definition, about: ChangeAbout, base?: Definition): boolean;
  onPreviewNodesChange(changes: NodeChange<FlowNode>[]): void;
  onPreviewEdgesChange(changes: EdgeChange<FlowEdge>[]): void;
  /** Puts the proposal into the document as one undo step; the ids of the added nodes. */
  acceptPreview(): string[];
  discardPreview(): void;
  setReview(review: CopilotSlice['review']): void;
}

const PROPOSED_EDGE = {
  animated: true,
  selectable: false,
  deletable: false,
  focusable: false,
  style: { strokeWidth: 2, stroke: '#7c3aed', strokeDasharray: '6 4' },
};

const asProposed = (n: FlowNode): FlowNode => ({
  ...n,
  id: PROPOSED + n.id,
  draggable: false,
  selectable: false,
  deletable: false,
  connectable: false,
  focusable: false,
  data: { ...n.data, proposed: true },
});

/** The proposal as preview nodes and edges: prefixed ids, not draggable, not selectable, marked proposed. */
function previewGraph(result: CopilotProposal): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const flow = toFlow({ nodes: result.pipeline.nodes, connections: result.pipeline.connections });
  return {
    nodes: flow.nodes.map(asProposed),
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
    set({ preview: { result, nodes, edges: graph.edges, change: null }, describing: false });
  },
  proposeChange(next, about, base) {
    const { nodes, edges } = get();
    const diff = diffGraph(nodes, edges, next, base);
    if (isEmptyChange(diff)) return false;
    const added = new Set(diff.addedNodes.map((n) => n.id));
    const end = (id: string) => (added.has(id) ? PROPOSED + id : id);
    const result: CopilotProposal = {
      pipeline: { name: about.name, nodes: next.nodes, connections: next.connections },
      validation: about.validation,
      reasoning: about.reasoning,
      unresolved: about.unresolved,
      dry_run: null,
      planner: 'offline',
    };
    set({
      preview: {
        result,
        nodes: diff.addedNodes.map(asProposed),
        edges: diff.addedEdges.map((e) => ({ ...e, id: PROPOSED + e.id, source: end(e.source), target: end(e.target), ...PROPOSED_EDGE })),
        change: { changed: diff.changed, removedNodes: diff.removedNodes, removedEdges: diff.removedEdges, rewired: diff.rewired, moved: diff.moved },
      },
      describing: false,
    });
    return true;
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
    // a change's new connections may end at the document's own nodes (ids as they are)
    const addedEdges: FlowEdge[] = preview.edges.map((e) => {
      const c = {
        source: rename.get(e.source) ?? e.source,
        source_port: e.sourceHandle ?? '',
        target: rename.get(e.target) ?? e.target,
        target_port: e.targetHandle ?? '',
      };
      return {
        id: connectionId(c),
        source: c.source,
        target: c.target,
        sourceHandle: e.sourceHandle,
        targetHandle: e.targetHandle,
        ...(e.data ? { data: e.data } : {}),
      };
    });
    const change = preview.change;
    const gone = new Set(change?.removedNodes);
    const cut = new Set(change?.removedEdges);
    const kept = nodes
      .filter((n) => !gone.has(n.id))
      .map((n) => {
        const data = change?.changed[n.id];
        const at = change?.moved[n.id];
        return data || at || n.selected ? { ...n, selected: false, ...(data ? { data } : {}), ...(at ? { position: at } : {}) } : n;
      });
    set({ preview: null });
    get().setGraph([...kept, ...added], [...edges.filter((e) => !cut.has(edgeKey(e)) && !gone.has(e.source) && !gone.has(e.target)), ...addedEdges]);
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
