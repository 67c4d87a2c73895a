import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { connectionId, defaultConfig, isNote, NOTE_PREFIX, NOTE_SIZE, savedKeyOf, toFlow, uniqueNodeId, uniqueNoteId, type Definition } from '../definition';
import { converterPorts, connectionFix, type ConnectionFix } from '../connection-fix';
import { connectionProblem, portOf } from '../ports';
import type { CatalogEntry, FlowEdge, FlowNode, NoteData, NoteNode, PipelineNodeData } from '../types';
import type { EditorInit, EditorSlice } from './index';
import { freeSpot } from '../placement';

/** The graph and the sticky notes: one undo step, or what copy put on the clipboard. */
interface Snapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
  notes: NoteNode[];
}

type HistoryEntry = Snapshot;

export type ConnectResult = { ok: true; note?: string } | { ok: false; problem: string; fix: ConnectionFix | null };

const HISTORY_LIMIT = 100;

/** The notes with none selected (the same array when none was). */
function unselected(notes: NoteNode[]): NoteNode[] {
  return notes.some((n) => n.selected) ? notes.map((n) => (n.selected ? { ...n, selected: false } : n)) : notes;
}

function edgeOf(c: Pick<Connection, 'source' | 'target' | 'sourceHandle' | 'targetHandle'>): FlowEdge {
  const conn = { source: c.source, source_port: c.sourceHandle ?? '', target: c.target, target_port: c.targetHandle ?? '' };
  return { id: connectionId(conn), source: c.source, target: c.target, sourceHandle: c.sourceHandle, targetHandle: c.targetHandle };
}

/** The pipeline being edited and its undo history: the one owner of nodes and edges. */
export interface DocumentSlice {
  pipelineId: string;
  catalog: Record<string, CatalogEntry>;
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** Sticky notes: saved with the definition, never pipeline nodes (their actions are in notes.ts). */
  notes: NoteNode[];
  past: HistoryEntry[];
  future: HistoryEntry[];
  /** Consecutive edits with the same key (typing in one field) make one undo step. */
  lastEdit: { key: string; at: number } | null;
  /** Version the canvas started from; saving sends it as expected_version. */
  baseVersion: number;
  savedKey: string;
  clipboard: Snapshot | null;
  pasteCount: number;

  onNodesChange(changes: NodeChange<FlowNode>[]): void;
  onEdgesChange(changes: EdgeChange<FlowEdge>[]): void;
  /**
   * Connects, or says why not and what would fit. A trigger that declares named inputs connected to a typed input
   * gets the field that fits, named after the input, and is connected from it (`note` says so).
   */
  connect(c: Connection): ConnectResult;
  /** Puts a node of `type` between the two ends of a refused connection, connected to both; its id. */
  insertConverter(c: Connection, type: string): string | null;
  addNode(type: string, position: { x: number; y: number }): string | null;
  updateNode(id: string, patch: Partial<PipelineNodeData>, editKey?: string): void;
  onNotesChange(changes: NodeChange<NoteNode>[]): void;
  /** Adds an empty note at `position` (flow coordinates), the only thing selected, open for typing; its flow id. */
  addNote(position: { x: number; y: number }): string;
  updateNote(id: string, patch: Partial<NoteData>, editKey?: string): void;
  removeNote(id: string): void;
  /** Marks the selection (the only node or note selected; null clears it, notes included). */
  select(id: string | null): void;
  /** Selects every node and note. */
  selectAll(): void;
  /** Remembers the canvas for undo; edits with the same `editKey` in a row make one step. */
  checkpoint(editKey?: string): void;
  undo(): void;
  redo(): void;
  /** Puts the selected nodes and notes (and the connections between those nodes) on the clipboard; how many. */
  copy(): number;
  /** Pastes the clipboard (new ids): beside the copied nodes and notes, or with its top-left corner at `at` (flow coordinates). */
  paste(at?: { x: number; y: number }): number;
  /** Copies the selected nodes and notes (and the connections between those nodes) beside them, leaving the clipboard alone. */
  duplicate(): number;
  /** Disables the selected nodes, or enables them when all are disabled (one undo step); how many changed. */
  toggleDisabled(): number;
  /** Replaces the graph (and the notes, when given) as one undo step. */
  setGraph(nodes: FlowNode[], edges: FlowEdge[], notes?: NoteNode[]): void;
  /**
   * Puts nodes and notes where a layout placed them (by id), as one undo step. Only places change: a layout is computed
   * from the document as it was when asked for, and what was edited, selected, added or deleted while it ran stays so.
   */
  moveTo(nodes: FlowNode[], notes: NoteNode[]): void;
  load(def: Definition, baseVersion: number, saved?: Definition): void;
  markSaved(def: Definition, version: number): void;
}

export const documentSlice =
  (init: EditorInit): EditorSlice<DocumentSlice> =>
  (set, get) => {
    const flow = toFlow(init.definition);
    /** Remembers the graph before a change, so undo can bring it back. */
    function remember(editKey?: string) {
      const { nodes, edges, notes, past, lastEdit } = get();
      const now = Date.now();
      if (editKey && lastEdit?.key === editKey && now - lastEdit.at < 1500) {
        set({ lastEdit: { key: editKey, at: now } });
        return;
      }
      set({ past: [...past, { nodes, edges, notes }].slice(-HISTORY_LIMIT), future: [], lastEdit: editKey ? { key: editKey, at: now } : null });
    }

    /**
     * Places copies of `snapshot`'s nodes and notes (new ids, selected, the rest unselected) and the connections
     * between its nodes, `offset` px away; how many nodes and notes it placed.
     */
    function place(snapshot: Snapshot, offset: { x: number; y: number }): number {
      const { nodes, edges, notes } = get();
      remember();
      const taken = new Set(nodes.map((n) => n.id));
      const rename = new Map<string, string>();
      const moved = (p: { x: number; y: number }) => ({ x: p.x + offset.x, y: p.y + offset.y });
      const pasted = snapshot.nodes.map((n) => {
        const id = uniqueNodeId(n.data.nodeType, taken);
        taken.add(id);
        rename.set(n.id, id);
        return { ...n, id, selected: true, position: moved(n.position), data: structuredClone(n.data) };
      });
      const pastedEdges = snapshot.edges.map((e) => {
        const c = { source: rename.get(e.source)!, source_port: e.sourceHandle ?? '', target: rename.get(e.target)!, target_port: e.targetHandle ?? '' };
        return { ...e, id: connectionId(c), source: c.source, target: c.target, selected: false };
      });
      const pastedNotes: NoteNode[] = [];
      for (const n of snapshot.notes) {
        const id = NOTE_PREFIX + uniqueNoteId([...notes, ...pastedNotes]);
        pastedNotes.push({ ...n, id, selected: true, position: moved(n.position), data: structuredClone(n.data) });
      }
      set({
        nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted],
        edges: [...edges.map((e) => (e.selected ? { ...e, selected: false } : e)), ...pastedEdges],
        notes: [...unselected(notes), ...pastedNotes],
      });
      return pasted.length + pastedNotes.length;
    }

    /** The selected nodes and notes, and the connections between those nodes. */
    function selection(): Snapshot {
      const { nodes, edges, notes } = get();
      const picked = nodes.filter((n) => n.selected);
      const ids = new Set(picked.map((n) => n.id));
      return { nodes: picked, edges: edges.filter((e) => ids.has(e.source) && ids.has(e.target)), notes: notes.filter((n) => n.selected) };
    }

    return {
      pipelineId: init.pipelineId,
      catalog: Object.fromEntries(init.catalog.map((e) => [e.id, e])),
      nodes: flow.nodes,
      edges: flow.edges,
      notes: flow.notes,
      past: [],
      future: [],
      lastEdit: null,
      baseVersion: init.baseVersion,
      savedKey: savedKeyOf(init.saved),
      clipboard: null,
      pasteCount: 0,

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
        if (!problem) {
          remember();
          set({ edges: [...edges, edgeOf(c)] });
          return { ok: true };
        }
        const fix = connectionFix(c, nodes, catalog);
        if (fix?.kind !== 'trigger-field' || edges.some((e) => e.target === c.target && e.targetHandle === c.targetHandle)) return { ok: false, problem, fix };
        // the trigger gets the input that fits, named after it, and the connection starts there (one undo step)
        remember();
        const trigger = nodes.find((n) => n.id === c.source)!;
        const fields = { ...((trigger.data.config.fields ?? {}) as Record<string, string>), [fix.field]: fix.type };
        const from = { ...c, sourceHandle: fix.field };
        set({
          nodes: nodes.map((n) => (n === trigger ? { ...n, data: { ...n.data, config: { ...n.data.config, fields } } } : n)),
          edges: [...edges, edgeOf(from)],
        });
        const name = catalog[trigger.data.nodeType]?.name ?? trigger.id;
        const note = `${name} now has an input "${fix.field}" (${fix.type}), connected to "${c.targetHandle}". Runs take it as inputs.${fix.field}.`;
        return { ok: true, note };
      },
      insertConverter(c, type) {
        const { nodes, edges, catalog } = get();
        const entry = catalog[type];
        const source = nodes.find((n) => n.id === c.source);
        const target = nodes.find((n) => n.id === c.target);
        const inp = portOf(target, catalog, 'inputs', c.targetHandle);
        const ports = entry && inp ? converterPorts(entry, inp.type) : null;
        if (!entry || !source || !target || !ports) return null;
        remember();
        const id = uniqueNodeId(type, new Set(nodes.map((n) => n.id)));
        const middle = { x: Math.round((source.position.x + target.position.x) / 2), y: Math.round((source.position.y + target.position.y) / 2) + 96 };
        const data = { nodeType: type, config: defaultConfig(entry.config_schema) };
        const node: FlowNode = { id, type: 'pipeline', position: freeSpot(middle, nodes), data };
        const into = { source: c.source, sourceHandle: c.sourceHandle ?? null, target: id, targetHandle: ports.input };
        const onward = { source: id, sourceHandle: ports.output, target: c.target, targetHandle: c.targetHandle };
        set({ nodes: [...nodes, node], edges: [...edges, edgeOf(onward)] });
        // connected like any other connection: a trigger gains the field the converter takes
        const r = get().connect(into);
        if (!r.ok) set({ edges: [...get().edges, edgeOf(into)] });
        return id;
      },
      addNode(type, position) {
        const entry = get().catalog[type];
        if (!entry) return null;
        remember();
        const nodes = get().nodes;
        const id = uniqueNodeId(type, new Set(nodes.map((n) => n.id)));
        // never on top of another node: the drop point, or the first free place below it
        const node: FlowNode = {
          id,
          type: 'pipeline',
          position: freeSpot(position, nodes),
          selected: true,
          data: { nodeType: type, config: defaultConfig(entry.config_schema) },
        };
        set({ nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node], notes: unselected(get().notes) });
        get().setPanel('node');
        return id;
      },
      updateNode(id, patch, editKey) {
        remember(editKey ? `${id}:${editKey}` : undefined);
        set({ nodes: get().nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...patch } } : n)) });
      },
      // a resize is remembered when it starts (checkpoint), removals by onBeforeDelete
      onNotesChange(changes) {
        if (changes.some((c) => c.type === 'add' || c.type === 'replace')) remember();
        set({ notes: applyNodeChanges(changes, get().notes) });
      },
      addNote(position) {
        remember();
        const id = NOTE_PREFIX + uniqueNoteId(get().notes);
        const note: NoteNode = { id, type: 'note', position, ...NOTE_SIZE, zIndex: -1, selected: true, data: { text: '', color: 'yellow' } };
        set({ nodes: get().nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), notes: [...unselected(get().notes), note] });
        get().setEditingNote(id);
        return id;
      },
      updateNote(id, patch, editKey) {
        remember(editKey ? `${id}:${editKey}` : undefined);
        set({ notes: get().notes.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...patch } } : n)) });
      },
      removeNote(id) {
        remember();
        set({ notes: get().notes.filter((n) => n.id !== id) });
        if (get().editingNote === id) get().setEditingNote(null);
      },
      select(id) {
        set({
          nodes: get().nodes.map((n) => (n.selected !== (n.id === id) ? { ...n, selected: n.id === id } : n)),
          edges: get().edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
          notes: id && isNote(id) ? get().notes.map((n) => (n.selected !== (n.id === id) ? { ...n, selected: n.id === id } : n)) : unselected(get().notes),
        });
        if (id && !isNote(id)) get().setPanel('node');
      },
      selectAll() {
        set({
          nodes: get().nodes.map((n) => (n.selected ? n : { ...n, selected: true })),
          notes: get().notes.map((n) => (n.selected ? n : { ...n, selected: true })),
        });
      },
      checkpoint(editKey) {
        remember(editKey);
      },
      toggleDisabled() {
        const selected = get().nodes.filter((n) => n.selected);
        if (selected.length === 0) return 0;
        const disabled = selected.some((n) => !n.data.disabled) || undefined;
        remember();
        set({ nodes: get().nodes.map((n) => (n.selected ? { ...n, data: { ...n.data, disabled } } : n)) });
        return selected.length;
      },
      undo() {
        const { past, future, nodes, edges, notes } = get();
        const prev = past.at(-1);
        if (!prev) return;
        set({ ...prev, past: past.slice(0, -1), future: [{ nodes, edges, notes }, ...future], lastEdit: null });
      },
      redo() {
        const { past, future, nodes, edges, notes } = get();
        const next = future[0];
        if (!next) return;
        set({ ...next, past: [...past, { nodes, edges, notes }], future: future.slice(1), lastEdit: null });
      },
      copy() {
        const picked = selection();
        set({ clipboard: picked, pasteCount: 0 });
        return picked.nodes.length + picked.notes.length;
      },
      paste(at) {
        const { clipboard, pasteCount } = get();
        if (!clipboard || clipboard.nodes.length + clipboard.notes.length === 0) return 0;
        if (at) {
          const corners = [...clipboard.nodes, ...clipboard.notes].map((n) => n.position);
          const left = Math.min(...corners.map((p) => p.x));
          const top = Math.min(...corners.map((p) => p.y));
          return place(clipboard, { x: at.x - left, y: at.y - top });
        }
        const step = 40 * (pasteCount + 1);
        const n = place(clipboard, { x: step, y: step });
        set({ pasteCount: pasteCount + 1 });
        return n;
      },
      duplicate() {
        const picked = selection();
        return picked.nodes.length + picked.notes.length ? place(picked, { x: 40, y: 40 }) : 0;
      },
      setGraph(nodes, edges, notes) {
        remember();
        set({ nodes, edges, ...(notes && { notes }) });
      },
      moveTo(nodes, notes) {
        const placed = <T extends FlowNode | NoteNode>(laidOut: T[]) => {
          const at = new Map(laidOut.map((n) => [n.id, n.position]));
          return (n: T): T => {
            const p = at.get(n.id);
            return p && (p.x !== n.position.x || p.y !== n.position.y) ? { ...n, position: p } : n;
          };
        };
        remember();
        const now = get();
        set({ nodes: now.nodes.map(placed(nodes)), notes: now.notes.map(placed(notes)) });
      },
      /** A whole other definition (a version, a reload): history starts over, the run state goes, the view fits it. */
      load(def, baseVersion, saved) {
        set({ ...toFlow(def), past: [], future: [], lastEdit: null, baseVersion, savedKey: savedKeyOf(saved ?? def) });
        get().setRun({});
        get().discardPreview();
        get().fitView();
      },
      markSaved(def, version) {
        set({ baseVersion: version, savedKey: savedKeyOf(def) });
      },
    };
  };
