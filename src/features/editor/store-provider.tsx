'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createEditorStore, type EditorInit, type EditorState, type EditorStore } from './store';

const StoreContext = createContext<EditorStore | null>(null);

/** One canvas store per mounted editor (re-keyed by the page when another pipeline opens). */
export function EditorStoreProvider({ init, children }: { init: EditorInit; children: ReactNode }) {
  const [store] = useState(() => createEditorStore(init));
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useEditorStoreApi(): EditorStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useEditor* must be used inside <EditorStoreProvider>');
  return store;
}

/** Subscribes to one slice; objects and arrays are compared shallowly, so unrelated changes do not re-render. */
export function useEditor<T>(selector: (s: EditorState) => T): T {
  return useStore(useEditorStoreApi(), useShallow(selector));
}
