import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { createStore } from 'zustand/vanilla';
import { connectionId, defaultConfig, savedKeyOf, toDefinition, toFlow, uniqueNodeId, type Definition } from './definition';
import { connectionProblem } from './ports';
import type { CatalogEntry, FlowEdge, FlowNode, Finding, NodeRunState, PipelineNodeData, StepState } from './types';

interface Snapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export type SidePanel = 'node' | 'versions' | 'debug';

export interface EditorState {
  pipelineId: string;
  catalog: Record<string, CatalogEntry>;
  nodes: FlowNode[];
  edges: FlowEdge[];
  past: Snapshot[];
  future: Snapshot[];
  /** Consecutive edits with the same key (typing in one field) make one undo step. */
  lastEdit: { key: string; at: number } | null;
  /** Version the canvas started from; saving sends it as expected_version. */
  baseVersion: number;
  savedKey: string;
  errors: Record<string, Finding[]>;
  warnings: Record<string, Finding[]>;
  pipelineFindings: { errors: Finding[]; warnings: Finding[] };
  run: Record<string, NodeRunState>;
  currentNode: string | null;
  clipboard: Snapshot | null;
  pasteCount: number;
  panel: SidePanel;
  /** The execution shown in the drawer (a run, a retry or the step session's). */
  executionId: string | null;
  step: StepState | null;
  /** JSON text of the test inputs, shared by the run dialog and the step debugger. */
  runInputs: string;
  /** Bumped when a whole other definition is loaded: the canvas fits it into view. */
  viewEpoch: number;

  onNodesChange(changes: NodeChange<FlowNode>[]): void;
  onEdgesChange(changes: EdgeChange<FlowEdge>[]): void;
  connect(c: Connection): string | null;
  addNode(type: string, position: { x: number; y: number }): string | null;
  updateNode(id: string, patch: Partial<PipelineNodeData>, editKey?: string): void;
  checkpoint(): void;
  undo(): void;
  redo(): void;
  copy(): number;
  paste(): number;
  setGraph(nodes: FlowNode[], edges: FlowEdge[]): void;
  load(def: Definition, baseVersion: number, saved?: Definition): void;
  markSaved(def: Definition, version: number): void;
  setFindings(errors: Finding[], warnings: Finding[]): void;
  setRun(run: Record<string, NodeRunState>, currentNode?: string | null): void;
  select(id: string | null): void;
  setPanel(panel: SidePanel): void;
  setExecution(id: string | null): void;
  setStep(step: StepState | null): void;
  setRunInputs(text: string): void;
}

const HISTORY_LIMIT = 100;

function byNode(findings: Finding[]): Record<string, Finding[]> {
  const out: Record<string, Finding[]> = {};
  for (const f of findings) if (f.node_id) (out[f.node_id] ??= []).push(f);
  return out;
}

export interface EditorInit {
  pipelineId: string;
  catalog: CatalogEntry[];
  definition: Definition;
  saved: Definition;
  baseVersion: number;
  runInputs: string;
}

export function createEditorStore(init: EditorInit) {
  const flow = toFlow(init.definition);
  return createStore<EditorState>()((set, get) => {
    /** Remembers the graph before a change, so undo can bring it back. */
    function remember(editKey?: string) {
      const { nodes, edges, past, lastEdit } = get();
      const now = Date.now();
      if (editKey && lastEdit?.key === editKey && now - lastEdit.at < 1500) {
        set({ lastEdit: { key: editKey, at: now } });
        return;
      }
      set({ past: [...past, { nodes, edges }].slice(-HISTORY_LIMIT), future: [], lastEdit: editKey ? { key: editKey, at: now } : null });
    }

    return {
      pipelineId: init.pipelineId,
      catalog: Object.fromEntries(init.catalog.map((e) => [e.id, e])),
      nodes: flow.nodes,
      edges: flow.edges,
      past: [],
      future: [],
      lastEdit: null,
      baseVersion: init.baseVersion,
      savedKey: savedKeyOf(init.saved),
      errors: {},
      warnings: {},
      pipelineFindings: { errors: [], warnings: [] },
      run: {},
      currentNode: null,
      clipboard: null,
      pasteCount: 0,
      panel: 'node',
      executionId: null,
      step: null,
      runInputs: init.runInputs,
      viewEpoch: 0,

      // removals are remembered once, in checkpoint() from React Flow's onBeforeDelete (nodes and their
      // edges arrive as two change lists; one undo step must bring both back)
      onNodesChange(changes) {
        if (changes.some((c) => c.type === 'add' || c.type === 'replace')) remember();
        set({ nodes: applyNodeChanges(changes, get().nodes) });
      },
      onEdgesChange(changes) {
        if (changes.some((c) => c.type === 'add' || c.type === 'replace')) remember();
        set({ edges: applyEdgeChanges(changes, get().edges) });
      },
      connect(c) {
        const { nodes, edges, catalog } = get();
        const problem = connectionProblem(c, nodes, edges, catalog);
        if (problem) return problem;
        remember();
        const conn = { source: c.source, source_port: c.sourceHandle ?? '', target: c.target, target_port: c.targetHandle ?? '' };
        const edge: FlowEdge = { id: connectionId(conn), source: c.source, target: c.target, sourceHandle: c.sourceHandle, targetHandle: c.targetHandle };
        set({ edges: [...edges, edge] });
        return null;
      },
      addNode(type, position) {
        const entry = get().catalog[type];
        if (!entry) return null;
        remember();
        const nodes = get().nodes;
        const id = uniqueNodeId(type, new Set(nodes.map((n) => n.id)));
        const node: FlowNode = {
          id,
          type: 'pipeline',
          position,
          selected: true,
          data: { nodeType: type, config: defaultConfig(entry.config_schema) },
        };
        set({ nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node], panel: 'node' });
        return id;
      },
      updateNode(id, patch, editKey) {
        remember(editKey ? `${id}:${editKey}` : undefined);
        set({ nodes: get().nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...patch } } : n)) });
      },
      checkpoint() {
        remember();
      },
      undo() {
        const { past, future, nodes, edges } = get();
        const prev = past.at(-1);
        if (!prev) return;
        set({ ...prev, past: past.slice(0, -1), future: [{ nodes, edges }, ...future], lastEdit: null });
      },
      redo() {
        const { past, future, nodes, edges } = get();
        const next = future[0];
        if (!next) return;
        set({ ...next, past: [...past, { nodes, edges }], future: future.slice(1), lastEdit: null });
      },
      copy() {
        const { nodes, edges } = get();
        const picked = nodes.filter((n) => n.selected);
        const ids = new Set(picked.map((n) => n.id));
        set({
          clipboard: { nodes: picked, edges: edges.filter((e) => ids.has(e.source) && ids.has(e.target)) },
          pasteCount: 0,
        });
        return picked.length;
      },
      paste() {
        const { clipboard, nodes, edges, pasteCount } = get();
        if (!clipboard?.nodes.length) return 0;
        remember();
        const taken = new Set(nodes.map((n) => n.id));
        const rename = new Map<string, string>();
        const offset = 40 * (pasteCount + 1);
        const pasted = clipboard.nodes.map((n) => {
          const id = uniqueNodeId(n.data.nodeType, taken);
          taken.add(id);
          rename.set(n.id, id);
          return { ...n, id, selected: true, position: { x: n.position.x + offset, y: n.position.y + offset }, data: structuredClone(n.data) };
        });
        const pastedEdges = clipboard.edges.map((e) => {
          const c = { source: rename.get(e.source)!, source_port: e.sourceHandle ?? '', target: rename.get(e.target)!, target_port: e.targetHandle ?? '' };
          return { ...e, id: connectionId(c), source: c.source, target: c.target, selected: false };
        });
        set({
          nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted],
          edges: [...edges.map((e) => (e.selected ? { ...e, selected: false } : e)), ...pastedEdges],
          pasteCount: pasteCount + 1,
        });
        return pasted.length;
      },
      setGraph(nodes, edges) {
        remember();
        set({ nodes, edges });
      },
      load(def, baseVersion, saved) {
        const f = toFlow(def);
        set({ ...f, past: [], future: [], lastEdit: null, baseVersion, savedKey: savedKeyOf(saved ?? def), run: {}, currentNode: null, viewEpoch: get().viewEpoch + 1 });
      },
      markSaved(def, version) {
        set({ baseVersion: version, savedKey: savedKeyOf(def) });
      },
      setFindings(errors, warnings) {
        set({
          errors: byNode(errors),
          warnings: byNode(warnings),
          pipelineFindings: { errors: errors.filter((f) => !f.node_id), warnings: warnings.filter((f) => !f.node_id) },
        });
      },
      setRun(run, currentNode = null) {
        set({ run, currentNode });
      },
      select(id) {
        set({
          nodes: get().nodes.map((n) => (n.selected !== (n.id === id) ? { ...n, selected: n.id === id } : n)),
          edges: get().edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
          ...(id ? { panel: 'node' as const } : {}),
        });
      },
      setPanel(panel) {
        set({ panel });
      },
      setExecution(executionId) {
        set({ executionId });
      },
      setStep(step) {
        set({ step });
      },
      setRunInputs(runInputs) {
        set({ runInputs });
      },
    };
  });
}

export type EditorStore = ReturnType<typeof createEditorStore>;

/** The definition on the canvas now. */
export function currentDefinition(s: Pick<EditorState, 'nodes' | 'edges'>): Definition {
  return toDefinition(s.nodes, s.edges);
}
