'use client';

import { Bug, Database, History, SlidersHorizontal } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Group, Panel, Separator, usePanelRef, type PanelImperativeHandle } from 'react-resizable-panels';
import { Tabs } from '@/components/ui/tabs';
import { Canvas } from './canvas';
import { ConfigPanel } from './config-panel';
import { CopilotChat } from './copilot-chat';
import { CopilotPreview } from './copilot-preview';
import { DraftBanner, type DraftOffer } from './draft-banner';
import { ExecutionDrawer } from './execution-drawer';
import { Palette } from './palette';
import { SettingsPanel } from './settings-panel';
import { StepPanel } from './step-panel';
import { useEditor } from './store-provider';
import type { SidePanel } from './store';
import { Toolbar } from './toolbar';
import type { Pipeline } from './types';
import { useEditorEffects } from './use-editor-effects';
import { ShortcutsSheet } from './shortcuts-sheet';
import { useShortcuts } from './use-shortcuts';
import { useEditorActions } from './actions-context';
import { VersionsPanel } from './versions-panel';
import { usePanelMemory } from './panel-memory';

const SEPARATOR_V = 'w-px bg-slate-200 outline-none data-[separator=active]:bg-teal-600 data-[separator=focus]:bg-teal-600 data-[separator=hover]:bg-teal-500';
const SEPARATOR_H = 'h-px bg-slate-200 outline-none data-[separator=active]:bg-teal-600 data-[separator=focus]:bg-teal-600 data-[separator=hover]:bg-teal-500';

/** The copilot panel's width, and the least the canvas keeps beside it (below, the palette folds away). */
const CHAT_WIDTH = 340;
const MIN_CANVAS = 480;

const TABS: { id: SidePanel; label: string; icon: typeof Bug }[] = [
  { id: 'node', label: 'Node', icon: SlidersHorizontal },
  { id: 'versions', label: 'Versions', icon: History },
  { id: 'debug', label: 'Debugger', icon: Bug },
  { id: 'settings', label: 'Settings', icon: Database },
];

function SidePanelView() {
  const { panel, setPanel, stepping, previewing } = useEditor((s) => ({
    panel: s.panel,
    setPanel: s.setPanel,
    stepping: s.step?.status === 'waiting',
    previewing: s.preview !== null,
  }));
  // the copilot's proposal is reviewed here until it is accepted or discarded
  if (previewing) return <CopilotPreview />;
  return (
    <div className="flex h-full flex-col bg-white">
      <Tabs
        label="Side panel"
        size="md"
        className="overflow-x-auto overflow-y-hidden border-slate-200 px-2"
        value={panel}
        onChange={setPanel}
        tabs={TABS.map((t) => ({
          id: t.id,
          label: t.label,
          icon: <t.icon className="size-3.5" aria-hidden />,
          badge: t.id === 'debug' && stepping ? <span className="size-1.5 animate-pulse rounded-full bg-sky-500" aria-label="session active" /> : undefined,
        }))}
      />
      <div role="tabpanel" className="min-h-0 flex-1 overflow-y-auto">
        {panel === 'node' ? <ConfigPanel /> : panel === 'versions' ? <VersionsPanel /> : panel === 'settings' ? <SettingsPanel /> : <StepPanel />}
      </div>
    </div>
  );
}

/** Palette | canvas (+ execution drawer) | side panel, full height beside the app's sidebar. */
export function EditorLayout({ pipeline, offer }: { pipeline: Pipeline; offer: DraftOffer | null }) {
  const { saver, runner } = useEditorActions();
  const hasExecution = useEditor((s) => s.executionId !== null);
  const previewing = useEditor((s) => s.preview !== null);
  const paletteRef = usePanelRef();
  const sideRef = usePanelRef();
  const fitAll = useEditor((s) => s.fitView);
  // a panel folded or opened changes the canvas's width: the pipeline is fitted to it again
  const toggle = (p: PanelImperativeHandle | null) => {
    if (p?.isCollapsed()) p.expand();
    else p?.collapse();
    window.requestAnimationFrame(() => fitAll());
  };
  // a proposal to review opens the side panel, where it is reviewed
  useEffect(() => {
    if (previewing && sideRef.current?.isCollapsed()) sideRef.current.expand();
  }, [previewing, sideRef]);
  // the canvas asked for a panel (its menu's "Open settings", "Add a node here")
  const reveal = useEditor((s) => s.reveal);
  useEffect(() => {
    const ref = reveal?.panel === 'palette' ? paletteRef : reveal?.panel === 'side' ? sideRef : null;
    if (ref?.current?.isCollapsed()) ref.current.expand();
  }, [reveal, paletteRef, sideRef]);
  // the copilot's panel beside the canvas; where the editor is too narrow for palette, canvas, copilot and side
  // panel together, the palette folds away while it is open (and comes back after)
  const { chatOpen, setChatOpen } = useEditor((s) => ({ chatOpen: s.chatOpen, setChatOpen: s.setChatOpen }));
  const frame = useRef<HTMLDivElement>(null);
  const foldedPalette = useRef(false);
  const fitView = useEditor((s) => s.fitView);
  const chatWas = useRef(chatOpen);
  useEffect(() => {
    if (chatWas.current === chatOpen) return;
    chatWas.current = chatOpen;
    // once the group has laid the panel out (folding before would be undone by that layout)
    const frameId = window.requestAnimationFrame(() => {
      const palette = paletteRef.current;
      if (!palette) return;
      if (chatOpen) {
        const width = frame.current?.clientWidth ?? window.innerWidth;
        const others = palette.getSize().inPixels + (sideRef.current?.getSize().inPixels ?? 0);
        if (!palette.isCollapsed() && width - others - CHAT_WIDTH < MIN_CANVAS) {
          palette.collapse();
          foldedPalette.current = true;
        }
      } else if (foldedPalette.current) {
        foldedPalette.current = false;
        if (palette.isCollapsed()) palette.expand();
      }
      // the canvas changed width: keep the pipeline in view
      fitView();
    });
    return () => window.cancelAnimationFrame(frameId);
  }, [chatOpen, paletteRef, sideRef, fitView]);
  const rememberPalette = usePanelMemory(
    paletteRef,
    'palette',
    useCallback(() => foldedPalette.current, []),
  );
  const rememberSide = usePanelMemory(sideRef, 'side');
  const [shortcuts, setShortcuts] = useState(false);
  useEditorEffects();
  useShortcuts(
    () => void saver.save(),
    () => setShortcuts(true),
    (nodeId) => void runner.runTo(nodeId),
  );

  return (
    <div ref={frame} className="fixed inset-0 z-20 flex flex-col bg-white md:left-64 md:group-data-[nav=collapsed]/shell:left-14">
      <Toolbar
        pipeline={pipeline}
        onTogglePalette={() => toggle(paletteRef.current)}
        onToggleSide={() => toggle(sideRef.current)}
        onShowSide={() => sideRef.current?.isCollapsed() && sideRef.current.expand()}
      />
      <DraftBanner offer={offer} />
      <Group orientation="horizontal" className="min-h-0 flex-1">
        <Panel
          id="editor-palette"
          panelRef={paletteRef}
          onResize={rememberPalette}
          collapsible
          defaultSize={240}
          minSize={180}
          maxSize={420}
          groupResizeBehavior="preserve-pixel-size"
        >
          <Palette />
        </Panel>
        <Separator className={SEPARATOR_V} />
        <Panel id="editor-center" minSize={300}>
          <Group orientation="vertical" className="h-full">
            <Panel id="editor-canvas" minSize={120}>
              <Canvas />
            </Panel>
            {hasExecution ? (
              <>
                <Separator className={SEPARATOR_H} />
                <Panel id="editor-drawer" defaultSize="38%" minSize={120}>
                  <ExecutionDrawer />
                </Panel>
              </>
            ) : null}
          </Group>
        </Panel>
        <Separator className={SEPARATOR_V} />
        {chatOpen ? (
          <>
            <Panel id="editor-copilot" defaultSize={CHAT_WIDTH} minSize={280} maxSize={560} groupResizeBehavior="preserve-pixel-size">
              <CopilotChat onClose={() => setChatOpen(false)} />
            </Panel>
            <Separator className={SEPARATOR_V} />
          </>
        ) : null}
        <Panel
          id="editor-side"
          panelRef={sideRef}
          onResize={rememberSide}
          collapsible
          defaultSize={330}
          minSize={260}
          maxSize={640}
          groupResizeBehavior="preserve-pixel-size"
        >
          <SidePanelView />
        </Panel>
      </Group>
      <ShortcutsSheet open={shortcuts} onClose={() => setShortcuts(false)} />
    </div>
  );
}
