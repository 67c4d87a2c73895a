/** MIME type of a palette entry being dragged (its data is the catalog id). */
export const NODE_DRAG_TYPE = 'application/x-clinflow-node';
/** Snap grid and background dot spacing, in flow pixels. */
export const GRID = 16;
/**
 * How "fit view" frames the pipeline: all of it (a 6-node chain at 1440×900 needs about 40 %), never larger than
 * 110 %. Below 80 % nodes draw their names larger (pipeline-node.tsx), so they stay readable.
 */
export const FIT = { padding: 0.12, maxZoom: 1.1, minZoom: 0.25 } as const;
