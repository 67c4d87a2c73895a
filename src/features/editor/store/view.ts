import type { EditorSlice } from './index';

export type SidePanel = 'node' | 'versions' | 'debug' | 'settings';

/** A collapsible panel of the editor the canvas may ask to show. */
export type EditorPanel = 'palette' | 'side';

/** What the editor shows: the side panel, and when the canvas should fit the graph into view. */
export interface ViewSlice {
  panel: SidePanel;
  /** Bumped when a whole other definition is loaded: the canvas fits it into view. */
  viewEpoch: number;
  /** The sticky note being edited (its flow id), or null. */
  editingNote: string | null;
  /** Where "Add a node here" drops the next node picked in the palette (flow coordinates), or null. */
  dropAt: { x: number; y: number } | null;
  /** A panel the canvas asked to show (the editor's layout expands it), with a count so asking twice works. */
  reveal: { panel: EditorPanel; seq: number } | null;
  setPanel(panel: SidePanel): void;
  fitView(): void;
  setEditingNote(id: string | null): void;
  setDropAt(at: { x: number; y: number } | null): void;
  revealPanel(panel: EditorPanel): void;
}

export const viewSlice: EditorSlice<ViewSlice> = (set, get) => ({
  panel: 'node',
  viewEpoch: 0,
  editingNote: null,
  dropAt: null,
  reveal: null,
  setPanel(panel) {
    set({ panel });
  },
  fitView() {
    set({ viewEpoch: get().viewEpoch + 1 });
  },
  setEditingNote(editingNote) {
    set({ editingNote });
  },
  setDropAt(dropAt) {
    set({ dropAt });
  },
  revealPanel(panel) {
    set({ reveal: { panel, seq: (get().reveal?.seq ?? 0) + 1 } });
  },
});
