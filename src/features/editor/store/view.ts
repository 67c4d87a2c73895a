import type { EditorSlice } from './index';

export type SidePanel = 'node' | 'versions' | 'debug';

/** What the editor shows: the side panel, and when the canvas should fit the graph into view. */
export interface ViewSlice {
  panel: SidePanel;
  /** Bumped when a whole other definition is loaded: the canvas fits it into view. */
  viewEpoch: number;
  setPanel(panel: SidePanel): void;
  fitView(): void;
}

export const viewSlice: EditorSlice<ViewSlice> = (set, get) => ({
  panel: 'node',
  viewEpoch: 0,
  setPanel(panel) {
    set({ panel });
  },
  fitView() {
    set({ viewEpoch: get().viewEpoch + 1 });
  },
});
