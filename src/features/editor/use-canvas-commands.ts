'use client';

import { useReactFlow } from '@xyflow/react';
import { toast } from 'sonner';
import { layoutDocument } from './auto-layout';
import { FIT } from './constants';
import { useEditorStoreApi } from './store-provider';

/** Canvas commands shared by the toolbar and the canvas menu: auto-layout (one undo step, sticky notes moved along) and fit view. */
export function useCanvasCommands() {
  const store = useEditorStoreApi();
  const flow = useReactFlow();

  async function layout() {
    const s = store.getState();
    try {
      const laidOut = await layoutDocument(s.nodes, s.edges, s.notes);
      // the places only: an edit made while the layout ran (a click, a config typed, a node deleted) stays
      store.getState().moveTo(laidOut.nodes, laidOut.notes);
      window.requestAnimationFrame(() => void flow.fitView({ ...FIT, duration: 300 }));
    } catch (e) {
      toast.error(`Auto-layout failed: ${(e as Error).message}`);
    }
  }

  return { layout, fit: () => void flow.fitView({ ...FIT, duration: 300 }) };
}
