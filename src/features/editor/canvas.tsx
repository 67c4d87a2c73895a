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
  type OnConnectEnd,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useState, type DragEvent } from 'react';
import { toast } from 'sonner';
import { autoLayout } from './auto-layout';
import { FIT, GRID, NODE_DRAG_TYPE } from './constants';
import { CopilotBox } from './copilot-box';
import { CATEGORY_LOOK } from './node-look';
import { nodeTypes } from './pipeline-node';
import { connectionProblem } from './ports';
import { useEditor, useEditorStoreApi } from './store-provider';
import { isProposed } from './store/copilot';
import type { FlowEdge, FlowNode } from './types';


const defaultEdgeOptions = { style: { strokeWidth: 2 } };

function snap(v: number) {
  return Math.round(v / GRID) * GRID;
}

/** Whether some nodes share a position: what a definition without positions looks like. */
function stacked(nodes: FlowNode[]): boolean {
  return new Set(nodes.map((n) => `${Math.round(n.position.x)},${Math.round(n.position.y)}`)).size < nodes.length;
}

/** Changes for the document's nodes or edges, and those for the copilot's proposal. */
function split<C extends { type: string }>(changes: C[]): [C[], C[]] {
  const idOf = (c: C) => ('id' in c ? String(c.id) : 'item' in c ? String((c.item as { id: string }).id) : '');
  return [changes.filter((c) => !isProposed(idOf(c))), changes.filter((c) => isProposed(idOf(c)))];
}

/** The React Flow canvas: nodes and connections of the store, drop target of the palette. */
export function Canvas() {
  const store = useEditorStoreApi();
  const { nodes, edges, onNodesChange, onEdgesChange, checkpoint, addNode, select, viewEpoch, drawerOpen, preview, describing } = useEditor((s) => ({
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
  const flow = useReactFlow<FlowNode, FlowEdge>();
  // the copilot's proposal is drawn beside the document's graph; changes React Flow reports for it stay with it
  const shownNodes = useMemo(() => (preview ? [...nodes, ...preview.nodes] : nodes), [nodes, preview]);
  const shownEdges = useMemo(() => (preview ? [...edges, ...preview.edges] : edges), [edges, preview]);
  const onShownNodesChange = useCallback(
    (changes: Parameters<typeof onNodesChange>[0]) => {
      const [mine, proposed] = split(changes);
      if (proposed.length) store.getState().onPreviewNodesChange(proposed);
      if (mine.length) onNodesChange(mine);
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
        const laidOut = await autoLayout(s.nodes, s.edges).catch(() => null);
        if (cancelled || !laidOut) return;
        s.setGraph(laidOut, s.edges);
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
      return connectionProblem(c, s.nodes, s.edges, s.catalog) === null;
    },
    [store],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      const problem = store.getState().connect(c);
      if (problem) toast.error(`Cannot connect: ${problem}`);
    },
    [store],
  );

  // a drop on a port that cannot take the connection: React Flow drops it silently, we say why
  const onConnectEnd = useCallback<OnConnectEnd>(
    (_event, c) => {
      if (c.isValid !== false || !c.fromHandle || !c.toHandle) return;
      const [src, dst] = c.fromHandle.type === 'source' ? [c.fromHandle, c.toHandle] : [c.toHandle, c.fromHandle];
      const s = store.getState();
      const problem = connectionProblem({ source: src.nodeId, sourceHandle: src.id, target: dst.nodeId, targetHandle: dst.id }, s.nodes, s.edges, s.catalog);
      if (problem) toast.error(`Cannot connect: ${problem}`);
    },
    [store],
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
    <div className="relative h-full w-full" onDragOver={onDragOver} onDrop={onDrop} data-testid="flow-canvas">
      <ReactFlow<FlowNode, FlowEdge>
        nodes={shownNodes}
        edges={shownEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onShownNodesChange}
        onEdgesChange={onShownEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onBeforeDelete={async () => {
          checkpoint();
          return true;
        }}
        onNodeDragStart={() => checkpoint()}
        onSelectionDragStart={() => checkpoint()}
        onPaneClick={() => select(null)}
        onNodeClick={() => {
          // show the clicked node's config, unless a step session is under way in the debugger
          const s = store.getState();
          if (s.panel !== 'node' && !(s.panel === 'debug' && s.step?.status === 'waiting')) s.setPanel('node');
        }}
        deleteKeyCode={['Backspace', 'Delete']}
        snapToGrid
        snapGrid={[GRID, GRID]}
        defaultEdgeOptions={defaultEdgeOptions}
        connectionLineStyle={{ strokeWidth: 2, stroke: '#0f766e' }}
        fitView={fitOnOpen}
        fitViewOptions={FIT}
        minZoom={0.2}
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
            const entry = store.getState().catalog[(n as FlowNode).data.nodeType];
            return entry ? MINIMAP_COLORS[entry.category] : '#94a3b8';
          }}
          nodeStrokeWidth={2}
          style={{ width: 160, height: 110 }}
          ariaLabel="Minimap"
        />
      </ReactFlow>
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
