/** MIME type of a palette entry being dragged (its data is the catalog id). */
export const NODE_DRAG_TYPE = 'application/x-clinflow-node';
/** Snap grid and background dot spacing, in flow pixels. */
export const GRID = 16;
