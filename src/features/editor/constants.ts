/** MIME type of a palette entry being dragged (its data is the catalog id). */
export const NODE_DRAG_TYPE = 'application/x-clinflow-node';
/** Snap grid and background dot spacing, in flow pixels. */
export const GRID = 16;
/**
 * How "fit view" frames the pipeline: never larger than 110 %, and never smaller than 50 %, where node
 * names and ports stop being readable (a larger pipeline is then framed from its start; pan for the rest).
 */
export const FIT = { padding: 0.25, maxZoom: 1.1, minZoom: 0.5 } as const;
