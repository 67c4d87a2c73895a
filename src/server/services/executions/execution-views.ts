import type { NodeRun, SkipReason } from '@/engine/execute-node';
import type { executionNodes, executions } from '@/server/db/schema';
import type { PayloadState } from '@/shared/data-settings';

type Row = typeof executions.$inferSelect;
type NodeRow = typeof executionNodes.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toSummary(row: Row) {
  return {
    id: row.id,
    pipeline_id: row.pipelineId,
    pipeline_version: row.pipelineVersion,
    status: row.status,
    trigger: row.trigger,
    test_mode: row.testMode,
    retry_of: row.retryOf,
    starts_after: row.afterId,
    error: row.error ?? null,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    duration_ms: row.durationMs,
    data_policy: row.dataPolicy,
    payloads: row.payloads,
    input_bytes: row.inputBytes,
    output_bytes: row.outputBytes,
    stored_bytes: row.storedBytes,
  };
}

/** Whether a node record's inputs and outputs are stored, given what the execution's are (only `kept` keeps them). */
const nodePayloads = (execution: PayloadState): PayloadState => (execution === 'input' ? 'not_kept' : execution);

export function toNode(row: NodeRow, payloads: PayloadState = 'kept') {
  const kept = payloads === 'kept';
  return {
    node_id: row.nodeId,
    node_type: row.nodeType,
    status: row.status,
    // not kept: null, so no client takes the empty objects stored in their place for a node's real data
    inputs: kept ? row.inputs : null,
    outputs: kept ? row.outputs : null,
    payloads,
    logs: row.logs,
    error: row.error ?? null,
    reason: row.reason ?? null,
    attempts: row.attempts,
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    duration_ms: row.durationMs,
  };
}

export function toDetail(row: Row, nodes: NodeRow[]) {
  const inputKept = row.payloads === 'kept' || row.payloads === 'input';
  const nodePayload = nodePayloads(row.payloads);
  return {
    ...toSummary(row),
    inputs: inputKept ? row.inputs : null,
    outputs: row.payloads === 'kept' ? (row.outputs ?? null) : null,
    nodes: nodes.map((n) => toNode(n, nodePayload)),
  };
}

/** The stored form of a node run, back as the engine's (to carry it over into a retry or a resumed run). */
export function toNodeRun(row: NodeRow): NodeRun {
  return {
    status: row.status as NodeRun['status'],
    inputs: row.inputs,
    outputs: row.outputs,
    logs: row.logs as NodeRun['logs'],
    error: row.error ?? null,
    attempts: row.attempts,
    started_ms: row.startedAt?.getTime() ?? null,
    finished_ms: row.finishedAt?.getTime() ?? null,
    duration_ms: row.durationMs,
    ...(row.emit ? { emit: row.emit } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
  };
}

export function nodeResults(nodes: { node_id: string; status: string; duration_ms: number | null; reason?: SkipReason | null }[]) {
  return Object.fromEntries(nodes.map((n) => [n.node_id, { status: n.status, duration_ms: n.duration_ms ?? 0, ...(n.reason ? { reason: n.reason } : {}) }]));
}
