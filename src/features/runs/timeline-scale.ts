import type { ExecutionNode } from './types';

export interface TimelineRow {
  node: ExecutionNode;
  /** Offsets from the timeline's origin, in ms; null when the node never started (pending, skipped). */
  start: number | null;
  end: number | null;
  /** Kept from the original run by a retry: it did not run in this execution. */
  carried: boolean;
}

export interface Timeline {
  rows: TimelineRow[];
  /** Length of the scale in ms (a round number at or above the last finish). */
  domain: number;
  ticks: number[];
  /** Wall-clock time of the scale's 0. */
  origin: number | null;
}

const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : null);

/** A retry keeps the upstream runs of its original: they finished before this execution began. */
export function isCarried(node: ExecutionNode, executionStart: string | null): boolean {
  const began = ms(executionStart);
  const finished = ms(node.finished_at);
  return began !== null && finished !== null && finished < began;
}

/** A round step (1, 2 or 5 × 10^k ms) giving about `count` intervals over `span`. */
export function niceStep(span: number, count = 5): number {
  const raw = Math.max(span, 1) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return Math.max(1, nice * power);
}

/**
 * Places every node on one time axis: from the earliest node start to the latest node finish (a running
 * node runs until `now`), in the order the nodes started; nodes that did not run in it (never started, or
 * carried over from the original by a retry) come last, without a bar. Ties (same millisecond) follow
 * the graph's `ranks` (depth from the trigger).
 */
export function buildTimeline(nodes: ExecutionNode[], now: number, executionStart: string | null, ranks?: Map<string, number>): Timeline {
  const timed = nodes.map((node) => {
    if (isCarried(node, executionStart)) return { node, s: null, e: null, carried: true };
    const s = ms(node.started_at);
    let e = ms(node.finished_at);
    if (s !== null && e === null) e = node.status === 'running' ? Math.max(now, s) : s + (node.duration_ms ?? 0);
    return { node, s, e, carried: false };
  });
  const starts = timed.flatMap((t) => (t.s === null ? [] : [t.s]));
  const origin = starts.length ? Math.min(...starts) : null;
  const last = origin === null ? 0 : Math.max(...timed.map((t) => t.e ?? origin)) - origin;
  const step = niceStep(last);
  const domain = Math.max(step, Math.ceil(last / step) * step);
  const ticks: number[] = [];
  for (let t = 0; t <= domain + step / 1000; t += step) ticks.push(Math.round(t * 1000) / 1000);
  const rows = timed
    .map((t) => ({
      node: t.node,
      start: t.s === null || origin === null ? null : t.s - origin,
      end: t.e === null || origin === null ? null : t.e - origin,
      carried: t.carried,
    }))
    .sort((a, b) => cmp(a.start, b.start) || cmp(ranks?.get(a.node.node_id) ?? null, ranks?.get(b.node.node_id) ?? null) || cmp(a.end, b.end));
  return { rows, domain, ticks, origin };
}

/** Ascending, nulls last. */
function cmp(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

export function formatTick(v: number): string {
  if (v === 0) return '0';
  if (v < 1000) return `${v} ms`;
  return `${+(v / 1000).toFixed(2)} s`;
}

export function pct(v: number, domain: number): number {
  return Math.min(100, Math.max(0, (v / domain) * 100));
}
