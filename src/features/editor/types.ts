import type { Edge, Node } from '@xyflow/react';
import type { NodeSettings, NoteColor } from '@/shared/pipeline';
import type { PortType } from '@/shared/ports';
import type { RouterOutputs } from '@/trpc/react';

/** A node type of the catalog, as `catalog.list` returns it. */
export type CatalogEntry = RouterOutputs['catalog']['list']['nodes'][number];
export type Category = CatalogEntry['category'];
/** A pipeline as saving returns it (the get operation adds `metadata`). */
export type Pipeline = RouterOutputs['pipelines']['update'];
export type Finding = RouterOutputs['pipelines']['validate']['errors'][number];

export interface Port {
  name: string;
  type: PortType;
  optional?: boolean;
  description?: string;
}

/** What the canvas keeps for one pipeline node (everything of the definition but id and position). */
export interface PipelineNodeData extends Record<string, unknown> {
  /** Catalog id of the node type (`type` of the definition; React Flow's own `type` is the renderer). */
  nodeType: string;
  name?: string;
  config: Record<string, unknown>;
  settings?: Partial<NodeSettings>;
  /** Pinned data: outputs a test run uses instead of running the node. */
  pinned?: Record<string, unknown>;
  /** A disabled node does not run: its input passes through (runs of every kind). */
  disabled?: boolean;
  /** Fields of the definition's node the editor does not manage, kept as they were. */
  extra?: Record<string, unknown>;
  /** Drawn as the copilot's proposal (a preview, not part of the document). */
  proposed?: boolean;
  /** Drawn as what the copilot's proposed change does to this node of the document (display only, never saved). */
  copilot?: 'changed' | 'removed' | 'rewired';
}

export type FlowNode = Node<PipelineNodeData, 'pipeline'>;

/** What the canvas keeps for one sticky note (its size is the React Flow node's width and height). */
export interface NoteData extends Record<string, unknown> {
  text: string;
  color: NoteColor;
  /** Fields of the definition's note the editor does not manage, kept as they were. */
  extra?: Record<string, unknown>;
}

/** A sticky note on the canvas: a React Flow node of its own type, id `note:<note id>`; never a pipeline node. */
export type NoteNode = Node<NoteData, 'note'>;
/** Everything React Flow draws as a node: pipeline nodes and sticky notes. */
export type CanvasNode = FlowNode | NoteNode;
export type FlowEdge = Edge<{ extra?: Record<string, unknown> }>;

/** Node statuses of an execution (DESIGN.md §3). */
export type NodeRunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'simulated' | 'waiting';

export interface NodeRunState {
  status: NodeRunStatus;
  duration_ms?: number | null;
}

export type ExecutionDetail = RouterOutputs['executions']['get'];
export type ExecutionNode = ExecutionDetail['nodes'][number];
export type ExecuteResult = RouterOutputs['executions']['execute'];
export type StepState = RouterOutputs['executions']['stepStart'];
