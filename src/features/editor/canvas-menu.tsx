'use client';

import { useReactFlow } from '@xyflow/react';
import {
  ArrowRightToLine,
  BoxSelect,
  ClipboardPaste,
  Copy,
  CopyPlus,
  Maximize,
  Network,
  Pencil,
  Pin,
  PinOff,
  Plus,
  Power,
  PowerOff,
  SlidersHorizontal,
  StickyNote,
  Trash2,
} from 'lucide-react';
import { ContextMenu, type MenuItem } from '@/components/ui/context-menu';
import { api } from '@/trpc/react';
import { useEditorActions } from './actions-context';
import { GRID } from './constants';
import { isNote } from './definition';
import { MOD } from './shortcuts-sheet';
import { useEditorStoreApi } from './store-provider';
import type { CanvasNode, FlowEdge } from './types';
import { useCanvasCommands } from './use-canvas-commands';

/** What was right-clicked: a node (or the selection it belongs to), a sticky note, or the empty canvas. */
export type CanvasMenuTarget = { kind: 'node'; id: string } | { kind: 'note'; id: string } | { kind: 'pane' };
export type CanvasMenuState = CanvasMenuTarget & { x: number; y: number };

const snap = (v: number) => Math.round(v / GRID) * GRID;

/** The canvas's context menu: the node actions on a node, note actions on a note, adding and view on the canvas. */
export function CanvasMenu({ menu, onClose }: { menu: CanvasMenuState; onClose: () => void }) {
  const items = useMenuItems(menu);
  const label = menu.kind === 'node' ? 'Node actions' : menu.kind === 'note' ? 'Note actions' : 'Canvas actions';
  return <ContextMenu x={menu.x} y={menu.y} label={label} items={items} onClose={onClose} />;
}

function useMenuItems(menu: CanvasMenuState): MenuItem[] {
  const store = useEditorStoreApi();
  const flow = useReactFlow<CanvasNode, FlowEdge>();
  const { runner } = useEditorActions();
  const { layout, fit } = useCanvasCommands();
  const utils = api.useUtils();
  const s = store.getState();

  if (menu.kind === 'note') {
    // the note is part of the selection (the canvas made it so): copy and duplicate take the whole selection
    const count = s.nodes.filter((n) => n.selected).length + s.notes.filter((n) => n.selected).length;
    const several = count > 1 ? ` (${count})` : '';
    return [
      { label: 'Edit text', icon: <Pencil />, shortcut: 'Double-click', onSelect: () => s.setEditingNote(menu.id) },
      { label: `Copy${several}`, icon: <Copy />, shortcut: `${MOD}+C`, separated: true, onSelect: () => void s.copy() },
      { label: `Duplicate${several}`, icon: <CopyPlus />, shortcut: `${MOD}+D`, onSelect: () => void s.duplicate() },
      {
        label: 'Delete note',
        icon: <Trash2 />,
        shortcut: 'Del',
        danger: true,
        separated: true,
        onSelect: () => void flow.deleteElements({ nodes: [{ id: menu.id }] }),
      },
    ];
  }

  if (menu.kind === 'pane') {
    const at = flow.screenToFlowPosition({ x: menu.x, y: menu.y });
    const spot = { x: snap(at.x), y: snap(at.y) };
    return [
      {
        label: 'Add a node here…',
        icon: <Plus />,
        onSelect: () => {
          s.setDropAt({ x: snap(at.x - 120), y: snap(at.y - 24) });
          s.revealPanel('palette');
          window.requestAnimationFrame(() => document.getElementById('palette-search')?.focus());
        },
      },
      { label: 'Add a sticky note here', icon: <StickyNote />, onSelect: () => s.addNote(spot) },
      {
        label: 'Paste',
        icon: <ClipboardPaste />,
        shortcut: `${MOD}+V`,
        disabled: !s.clipboard || s.clipboard.nodes.length + s.clipboard.notes.length === 0,
        onSelect: () => s.paste(spot),
      },
      { label: 'Select all', icon: <BoxSelect />, shortcut: `${MOD}+A`, separated: true, onSelect: () => s.selectAll() },
      { label: 'Auto-layout', icon: <Network />, disabled: s.nodes.length === 0, onSelect: () => void layout() },
      { label: 'Fit view', icon: <Maximize />, onSelect: fit },
    ];
  }

  // the canvas selected the node when it was not part of the selection: the actions act on the selection
  const picked = s.nodes.filter((n) => n.selected);
  const one = picked.length === 1 ? picked[0]! : null;
  const allDisabled = picked.every((n) => n.data.disabled);
  const shown = s.executionId ? utils.executions.get.getData({ id: s.executionId }) : undefined;
  const result = one ? shown?.nodes.find((n) => n.node_id === one.id && n.status === 'completed') : undefined;
  const several = picked.length > 1 ? ` (${picked.length})` : '';
  // copy and duplicate take the selected notes along
  const copied = picked.length + s.notes.filter((n) => n.selected).length;
  const withNotes = copied > 1 ? ` (${copied})` : '';

  const items: MenuItem[] = [];
  if (one) {
    items.push(
      {
        label: 'Open settings',
        icon: <SlidersHorizontal />,
        onSelect: () => {
          s.setPanel('node');
          s.revealPanel('side');
        },
      },
      { label: 'Run to here', icon: <ArrowRightToLine />, shortcut: 'Shift+R', disabled: runner.running, onSelect: () => void runner.runTo(one.id) },
    );
  }
  items.push({
    label: `${allDisabled ? 'Enable' : 'Disable'}${several}`,
    icon: allDisabled ? <Power /> : <PowerOff />,
    shortcut: 'D',
    onSelect: () => void s.toggleDisabled(),
  });
  if (one?.data.pinned) {
    items.push({ label: 'Unpin outputs', icon: <PinOff />, onSelect: () => s.updateNode(one.id, { pinned: undefined }, 'pinned') });
  } else if (one && result) {
    items.push({
      label: 'Pin outputs of the shown run',
      icon: <Pin />,
      onSelect: () => s.updateNode(one.id, { pinned: result.outputs as Record<string, unknown> }, 'pinned'),
    });
  }
  items.push(
    { label: `Copy${withNotes}`, icon: <Copy />, shortcut: `${MOD}+C`, separated: true, onSelect: () => void s.copy() },
    { label: `Duplicate${withNotes}`, icon: <CopyPlus />, shortcut: `${MOD}+D`, onSelect: () => void s.duplicate() },
    {
      label: `Delete${several}`,
      icon: <Trash2 />,
      shortcut: 'Del',
      danger: true,
      separated: true,
      onSelect: () => void flow.deleteElements({ nodes: picked.filter((n) => !isNote(n.id)).map((n) => ({ id: n.id })) }),
    },
  );
  return items;
}
