import type { ExecutionDetail, NodeRunState, NodeRunStatus } from './types';

const KNOWN: NodeRunStatus[] = ['pending', 'running', 'completed', 'failed', 'skipped', 'simulated', 'waiting'];

export function asRunStatus(s: string): NodeRunStatus {
  return (KNOWN as string[]).includes(s) ? (s as NodeRunStatus) : 'pending';
}

export function fromResults(results: Record<string, { status: string; duration_ms: number | null }> | undefined): Record<string, NodeRunState> {
  return Object.fromEntries(Object.entries(results ?? {}).map(([id, r]) => [id, { status: asRunStatus(r.status), duration_ms: r.duration_ms }]));
}

/** Canvas statuses of an execution: every node of the run, the rest pending while it is under way. */
export function fromDetail(detail: ExecutionDetail, nodeIds: string[], current: string | null): Record<string, NodeRunState> {
  const live = detail.status === 'queued' || detail.status === 'running';
  const out: Record<string, NodeRunState> = {};
  if (live) for (const id of nodeIds) out[id] = { status: 'pending' };
  for (const n of detail.nodes) out[n.node_id] = { status: asRunStatus(n.status), duration_ms: n.duration_ms };
  if (current) out[current] = { status: 'waiting' };
  return out;
}

export const FINISHED = new Set(['completed', 'failed', 'cancelled']);
