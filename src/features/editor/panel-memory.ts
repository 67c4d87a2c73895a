'use client';

import { useCallback, useEffect, type RefObject } from 'react';
import type { PanelImperativeHandle, PanelSize } from 'react-resizable-panels';

const KEY = 'clinflow.editor.panel.';

/**
 * Remembers whether an editor side panel (palette, node panel) was folded away, in this browser: it opens folded
 * the next time. Gives the panel's onResize. `skip` says a fold is not the user's (made room for the copilot).
 */
export function usePanelMemory(ref: RefObject<PanelImperativeHandle | null>, name: string, skip?: () => boolean): (size: PanelSize) => void {
  useEffect(() => {
    if (window.localStorage.getItem(KEY + name) !== 'collapsed') return;
    // once the group has laid the panels out (folding before would be undone by that layout)
    const frame = window.requestAnimationFrame(() => ref.current?.collapse());
    return () => window.cancelAnimationFrame(frame);
  }, [ref, name]);
  return useCallback(
    (size: PanelSize) => {
      if (skip?.()) return;
      window.localStorage.setItem(KEY + name, size.inPixels < 1 ? 'collapsed' : 'open');
    },
    [name, skip],
  );
}
