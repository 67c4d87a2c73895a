'use client';

import { useReactFlow } from '@xyflow/react';
import { toast } from 'sonner';
import { autoLayout } from './auto-layout';
import { FIT } from './constants';
import { useEditorStoreApi } from './store-provider';

/** Canvas commands shared by the toolbar and the canvas menu: auto-layout (one undo step) and fit view. */
export function useCanvasCommands() {
  const store = useEditorStoreApi();
  const flow = useReactFlow();

  async function layout() {
    const s = store.getState();
    try {
      s.setGraph(await autoLayout(s.nodes, s.edges), s.edges);
      window.requestAnimationFrame(() => void flow.fitView({ ...FIT, duration: 300 }));
    } catch (e) {
      toast.error(`Auto-layout failed: ${(e as Error).message}`);
    }
  }

  return { layout, fit: () => void flow.fitView({ ...FIT, duration: 300 }) };
}
