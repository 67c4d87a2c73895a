'use client';

import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { useEditorStoreApi } from './store-provider';

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('.cm-editor');
}

/**
 * Canvas shortcuts (listed for users in shortcuts-sheet.tsx): Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo,
 * Ctrl/⌘+C/V copy/paste the selected nodes and notes, Ctrl/⌘+D duplicate, Ctrl/⌘+A selects every node and note,
 * D disables/enables the selected nodes, Shift+R test-runs up to the selected node, Ctrl/⌘+S save, "/" focuses the palette
 * search, "?" opens the shortcut sheet.
 * Delete/Backspace is React Flow's own.
 */
export function useShortcuts(onSave: () => void, onHelp: () => void, onRunTo: (nodeId: string) => void) {
  const store = useEditorStoreApi();
  const save = useRef(onSave);
  save.current = onSave;
  const help = useRef(onHelp);
  help.current = onHelp;
  const runTo = useRef(onRunTo);
  runTo.current = onRunTo;

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        save.current();
        return;
      }
      if (typingIn(e.target)) return;
      // a dialog is open: its content owns the keyboard
      if (document.querySelector('dialog[open]')) return;
      const s = store.getState();
      if (mod && key === 'z' && !e.shiftKey) {
        e.preventDefault();
        s.undo();
      } else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) {
        e.preventDefault();
        s.redo();
      } else if (mod && key === 'c') {
        if (window.getSelection()?.toString()) return;
        if (s.copy()) toast.success(`Copied ${copied(store.getState().clipboard!)}`, { duration: 1500 });
      } else if (mod && key === 'v') {
        e.preventDefault();
        s.paste();
      } else if (mod && key === 'a') {
        if (!document.activeElement?.closest('.react-flow') && document.activeElement !== document.body) return;
        e.preventDefault(); // not the page's text
        s.selectAll();
      } else if (mod && key === 'd') {
        e.preventDefault(); // the browser's bookmark shortcut
        s.duplicate();
      } else if (key === 'd' && !mod && !e.shiftKey && !e.altKey) {
        s.toggleDisabled();
      } else if (key === 'r' && e.shiftKey && !mod && !e.altKey) {
        const selected = s.nodes.filter((n) => n.selected);
        if (selected.length === 1) runTo.current(selected[0]!.id);
        else toast.info('Select one node to run the pipeline up to it', { duration: 2000 });
      } else if (key === '/' && !mod) {
        e.preventDefault();
        document.getElementById('palette-search')?.focus();
      } else if (e.key === '?' && !mod) {
        e.preventDefault();
        help.current();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

/** "2 nodes and 1 note": what a copy took. */
function copied(c: { nodes: unknown[]; notes: unknown[] }): string {
  const count = (n: number, what: string) => (n ? `${n} ${what}${n === 1 ? '' : 's'}` : '');
  return [count(c.nodes.length, 'node'), count(c.notes.length, 'note')].filter(Boolean).join(' and ');
}
