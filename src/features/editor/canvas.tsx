'use client';

import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type IsValidConnection,
  type NodeChange,
  type OnConnectEnd,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { toast } from 'sonner';
import { layoutDocument } from './auto-layout';
import { CanvasMenu, type CanvasMenuState } from './canvas-menu';
import { FIT, GRID, NODE_DRAG_TYPE } from './constants';
import { CopilotBox } from './copilot-box';
import { CATEGORY_LOOK } from './node-look';
import { isNote } from './definition';
import { nodeTypes as pipelineNodeTypes } from './pipeline-node';
import { refusal } from './connection-fix';
import { typeInWords } from './ports';
import { NOTE_LOOK, StickyNote } from './sticky-note';
import { useEditor, useEditorStoreApi } from './store-provider';
import { edgeKey } from './copilot-change';
import { isProposed, type Preview } from './store/copilot';
import type { CanvasNode, FlowEdge, FlowNode, NoteNode } from './types';
import { useEdgePan } from './use-edge-pan';

/** Module scope: a new object on each render would make React Flow remount every node. */
const nodeTypes = { ...pipelineNodeTypes, note: StickyNote };

const defaultEdgeOptions = { style: { strokeWidth: 2 } };

function snap(v: number) {
  return Math.round(v / GRID) * GRID;
}

/** Where a context menu opens: at the pointer, or under the element when the keyboard opened it (Shift+F10). */
function menuPoint(e: { clientX: number; clientY: number; target: EventTarget | null }): { x: number; y: number } {
  if (e.clientX || e.clientY || !(e.target instanceof Element)) return { x: e.clientX, y: e.clientY };
  const box = e.target.getBoundingClientRect();
  return { x: box.left + 8, y: box.bottom + 4 };
}

/** Whether some nodes share a position: what a definition without positions looks like. */
function stacked(nodes: FlowNode[]): boolean {
  return new Set(nodes.map((n) => `${Math.round(n.position.x)},${Math.round(n.position.y)}`)).size < nodes.length;
}

/** Changes for the document's nodes or edges, those for the copilot's proposal, and those for sticky notes. */
function split<C extends { type: string }>(changes: C[]): [C[], C[], C[]] {
  const idOf = (c: C) => ('id' in c ? String(c.id) : 'item' in c ? String((c.item as { id: string }).id) : '');
  const mine = (c: C) => !isProposed(idOf(c)) && !isNote(idOf(c));
  return [changes.filter(mine), changes.filter((c) => isProposed(idOf(c))), changes.filter((c) => isNote(idOf(c)))];
}

/** The document's nodes as a proposed change leaves them: changed, removed or rewired ones marked (display only). */
function marked(nodes: FlowNode[], change: Preview['change']): FlowNode[] {
  if (!change) return nodes;
  const gone = new Set(change.removedNodes);
  const rewired = new Set(change.rewired);
  const mark = (n: FlowNode): FlowNode['data']['copilot'] =>
    change.changed[n.id] ? 'changed' : gone.has(n.id) ? 'removed' : rewired.has(n.id) ? 'rewired' : undefined;
  // where the change moves a node to make room, it is drawn there
  const place = (n: FlowNode): FlowNode => (change.moved[n.id] ? { ...n, position: change.moved[n.id]! } : n);
  return nodes.map((n) => place(mark(n) ? { ...n, data: { ...n.data, copilot: mark(n) } } : n));
}

const REMOVED_EDGE = { animated: false, style: { strokeWidth: 2, stroke: '#f87171', strokeDasharray: '2 5', opacity: 0.7 } };

/** The document's connections with those a proposed change takes away drawn faint, dotted red. */
function cut(edges: FlowEdge[], change: Preview['change']): FlowEdge[] {
  if (!change || (!change.removedEdges.length && !change.removedNodes.length)) return edges;
  const keys = new Set(change.removedEdges);
  const gone = new Set(change.removedNodes);
  return edges.map((e) => (keys.has(edgeKey(e)) || gone.has(e.source) || gone.has(e.target) ? { ...e, ...REMOVED_EDGE, className: 'copilot-removed' } : e));
}

/** The React Flow canvas: nodes and connections of the store, drop target of the palette. */
export function Canvas() {
  const store = useEditorStoreApi();
  const { nodes, edges, notes, onNodesChange, onEdgesChange, checkpoint, addNode, select, viewEpoch, drawerOpen, preview, describing } = useEditor((s) => ({
    notes: s.notes,
    preview: s.preview,
    describing: s.describing,
    viewEpoch: s.viewEpoch,
    drawerOpen: s.executionId !== null,
    nodes: s.nodes,
    edges: s.edges,
    onNodesChange: s.onNodesChange,
    onEdgesChange: s.onEdgesChange,
    checkpoint: s.checkpoint,
    addNode: s.addNode,
    select: s.select,
  }));
  const flow = useReactFlow<CanvasNode, FlowEdge>();
  const [menu, setMenu] = useState<CanvasMenuState | null>(null);
  const canvasBox = useRef<HTMLDivElement>(null);
  const { onConnectStart, onConnectEnd: stopEdgePan } = useEdgePan(canvasBox);
  // the copilot's proposal is drawn beside the document's graph; changes React Flow reports for it stay with it.
  // Sticky notes come first: drawn under the pipeline's nodes
  // a proposed change also marks what it does to the document's own nodes and connections
  const shownNodes = useMemo<CanvasNode[]>(() => [...notes, ...marked(nodes, preview?.change ?? null), ...(preview?.nodes ?? [])], [notes, nodes, preview]);
  const shownEdges = useMemo(() => (preview ? [...cut(edges, preview.change), ...preview.edges] : edges), [edges, preview]);
  const onShownNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      const [mine, proposed, forNotes] = split(changes);
      if (proposed.length) store.getState().onPreviewNodesChange(proposed as NodeChange<FlowNode>[]);
      if (forNotes.length) store.getState().onNotesChange(forNotes as NodeChange<NoteNode>[]);
      if (mine.length) onNodesChange(mine as NodeChange<FlowNode>[]);
    },
    [onNodesChange, store],
  );
  const onShownEdgesChange = useCallback(
    (changes: Parameters<typeof onEdgesChange>[0]) => {
      const [mine, proposed] = split(changes);
      if (proposed.length) store.getState().onPreviewEdgesChange(proposed);
      if (mine.length) onEdgesChange(mine);
    },
    [onEdgesChange, store],
  );
  // fit the pipeline once when it opens; on an empty canvas React Flow would instead zoom onto the first drop
  const [fitOnOpen] = useState(() => store.getState().nodes.length > 0);
  // and again once the side panels have taken their width (the first fit sees the canvas before they do);
  // a pipeline saved without positions (generated, or sent over REST) is laid out first
  useEffect(() => {
    if (!fitOnOpen) return;
    let cancelled = false;
    const t = setTimeout(async () => {
      const s = store.getState();
      if (stacked(s.nodes)) {
        const laidOut = await layoutDocument(s.nodes, s.edges, s.notes).catch(() => null);
        if (cancelled || !laidOut) return;
        store.getState().moveTo(laidOut.nodes, laidOut.notes);
        toast.info('Laid out automatically: nodes of this version sat on top of each other. Save to keep the layout.');
      }
      void flow.fitView(FIT);
    }, 120);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [fitOnOpen, flow, store]);
  // a proposal comes into view once React Flow has measured its nodes
  const proposalMeasured = preview ? preview.nodes.every((n) => n.measured) : false;
  const proposalResult = preview?.result;
  useEffect(() => {
    if (!proposalResult || !proposalMeasured) return;
    const frame = window.requestAnimationFrame(() => void flow.fitView({ ...FIT, padding: 0.1, minZoom: 0.3, duration: 300 }));
    return () => window.cancelAnimationFrame(frame);
  }, [proposalResult, proposalMeasured, flow]);
  useEffect(() => {
    if (viewEpoch === 0) return;
    const frame = window.requestAnimationFrame(() => void flow.fitView({ ...FIT, duration: 300 }));
    return () => window.cancelAnimationFrame(frame);
  }, [viewEpoch, flow]);
  // the execution drawer takes the lower part of the canvas: keep the pipeline in sight
  useEffect(() => {
    if (!drawerOpen) return;
    const t = setTimeout(() => void flow.fitView({ ...FIT, padding: 0.2, duration: 250 }), 60);
    return () => clearTimeout(t);
  }, [drawerOpen, flow]);

  const isValidConnection = useCallback<IsValidConnection<FlowEdge>>(
    (c: FlowEdge | Connection | Edge) => {
      const s = store.getState();
      // a trigger takes a typed input by gaining the field that fits (connect does it)
      return refusal(c, s.nodes, s.edges, s.catalog) === null;
    },
    [store],
  );

  /** Connects, or says why not and what would fit, with the fix one click away where there is one. */
  const connectOrExplain = useCallback(
    (c: Connection) => {
      const s = store.getState();
      const r = s.connect(c);
      if (r.ok) {
        if (r.note) toast.success(r.note);
        return;
      }
      const fix = r.fix?.kind === 'converter' ? r.fix : null;
      const first = fix?.types[0];
      const reshape = 'A JSONata transform or code node can reshape a value into what the input takes.';
      if (!fix || !first) return toast.error(`Cannot connect: ${r.problem}`, { description: reshape });
      const others = fix.types.slice(1, 3).map((t) => t.name);
      toast.error(`Cannot connect: ${r.problem}`, {
        description: `${first.name} turns ${typeInWords(fix.from)} into what it takes${others.length ? ` (so do ${others.join(', ')})` : ''}.`,
        duration: 12_000,
        action: { label: `Insert ${first.name}`, onClick: () => void store.getState().insertConverter(c, first.id) },
      });
    },
    [store],
  );
  const onConnect = connectOrExplain;

  // a drop on a port that cannot take the connection: React Flow drops it silently, we say why
  const onConnectEnd = useCallback<OnConnectEnd>(
    (_event, c) => {
      stopEdgePan();
      if (c.isValid !== false || !c.fromHandle || !c.toHandle) return;
      const [src, dst] = c.fromHandle.type === 'source' ? [c.fromHandle, c.toHandle] : [c.toHandle, c.fromHandle];
      connectOrExplain({ source: src.nodeId, sourceHandle: src.id ?? null, target: dst.nodeId, targetHandle: dst.id ?? null });
    },
    [connectOrExplain, stopEdgePan],
  );

  function onDragOver(e: DragEvent) {
    if (!e.dataTransfer.types.includes(NODE_DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }

  function onDrop(e: DragEvent) {
    const type = e.dataTransfer.getData(NODE_DRAG_TYPE);
    if (!type) return;
    e.preventDefault();
    const p = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
    addNode(type, { x: snap(p.x - 120), y: snap(p.y - 24) });
  }

  return (
    <div ref={canvasBox} className="relative h-full w-full" onDragOver={onDragOver} onDrop={onDrop} data-testid="flow-canvas">
      <ReactFlow<CanvasNode, FlowEdge>
        nodes={shownNodes}
        edges={shownEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onShownNodesChange}
        onEdgesChange={onShownEdgesChange}
        onConnect={onConnect}
        onConnectStart={onConnectStart}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onBeforeDelete={async () => {
          checkpoint();
          return true;
        }}
        onNodeDragStart={() => checkpoint()}
        onSelectionDragStart={() => checkpoint()}
        onPaneClick={() => select(null)}
        onNodeClick={(_e, node) => {
          // show the clicked node's config, unless a step session is under way in the debugger
          const s = store.getState();
          if (isNote(node.id)) return;
          if (s.panel !== 'node' && !(s.panel === 'debug' && s.step?.status === 'waiting')) s.setPanel('node');
        }}
        onNodeContextMenu={(e, node) => {
          e.preventDefault();
          if (isProposed(node.id)) return;
          // a node or note outside the selection becomes the selection; one inside keeps it (the menu acts on all)
          if (!node.selected) select(node.id);
          setMenu({ kind: isNote(node.id) ? 'note' : 'node', id: node.id, ...menuPoint(e) });
        }}
        onSelectionContextMenu={(e, picked) => {
          e.preventDefault();
          const first = picked.find((n) => !isNote(n.id) && !isProposed(n.id));
          if (first) setMenu({ kind: 'node', id: first.id, ...menuPoint(e) });
        }}
        onPaneContextMenu={(e) => {
          e.preventDefault();
          setMenu({ kind: 'pane', x: e.clientX, y: e.clientY });
        }}
        deleteKeyCode={['Backspace', 'Delete']}
        snapToGrid
        snapGrid={[GRID, GRID]}
        defaultEdgeOptions={defaultEdgeOptions}
        connectionLineStyle={{ strokeWidth: 2, stroke: '#0f766e' }}
        fitView={fitOnOpen}
        fitViewOptions={FIT}
        minZoom={0.2}
        // React Flow's auto-pan shoved the canvas away whenever a connection passed near an edge; useEdgePan pans
        // only when the pointer rests at the edge on purpose
        autoPanOnConnect={false}
        maxZoom={2}
        className="bg-slate-50"
      >
        <Background variant={BackgroundVariant.Dots} gap={GRID} size={1.2} color="#cbd5e1" />
        <Controls position="bottom-left" className="shadow-sm!" />
        <MiniMap
          position="bottom-right"
          pannable
          zoomable
          className="rounded-md! border! border-slate-200! shadow-sm!"
          nodeColor={(n) => {
            if (n.type === 'note') return NOTE_LOOK[(n as NoteNode).data.color]?.minimap ?? '#fcd34d';
            const entry = store.getState().catalog[(n as FlowNode).data.nodeType];
            return entry ? MINIMAP_COLORS[entry.category] : '#94a3b8';
          }}
          nodeStrokeWidth={2}
          style={{ width: 160, height: 110 }}
          ariaLabel="Minimap"
        />
      </ReactFlow>
      {menu ? <CanvasMenu menu={menu} onClose={() => setMenu(null)} /> : null}
      {preview ? null : nodes.length === 0 || describing ? (
        <div className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center">
          <CopilotBox empty={nodes.length === 0} />
        </div>
      ) : null}
    </div>
  );
}

const MINIMAP_COLORS: Record<keyof typeof CATEGORY_LOOK, string> = {
  control: '#fbbf24',
  healthcare: '#fb7185',
  data: '#38bdf8',
  ai: '#a78bfa',
  claims: '#818cf8',
  output: '#10b981',
};
