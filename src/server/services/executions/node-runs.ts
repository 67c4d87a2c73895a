import { sql, type SQL } from 'drizzle-orm';
import type { LogEntry } from '@/engine/node-type';
import type { CompactNodeRuns, executionNodes } from '@/server/db/schema';
import type { NodeRecord } from './node-records';

type NodeRow = typeof executionNodes.$inferSelect;

/**
 * The node records of a run that keeps no payload and did not fail (data-policy.ts `keepsNodeRows`), stored in one
 * value of its executions row instead of a row per node: a feed message's six execution_nodes rows were ~1.9 KB of
 * heap and index, for records that hold only a status, timings, attempts and, rarely, an error or logs. Per node, an
 * array `[node_id, node_type, status, attempts, started, finished, duration_ms, error, reason, logs]`, times in ms
 * after `t0`, each log entry `[time, message]` (`[time, message, level]` when not `info`); what is null (or an
 * empty log) at the end is left out. Stored as `json` (its text: a third smaller than jsonb's binary form, and a
 * row under 2 KB is never compressed). Readers: `readNodeRecords` (detail, retry) and, in SQL, `compactNodes`
 * beside execution_nodes (stats, dashboard).
 */
export function compactNodeRuns(records: NodeRecord[]): CompactNodeRuns {
  const starts = records.map((r) => r.started_ms).filter((t): t is number => t !== null);
  const t0 = starts.length ? Math.min(...starts) : 0;
  const at = (t: number | null) => (t === null ? null : t - t0);
  const nodes = records.map((r) => {
    const entry: unknown[] = [r.node_id, r.node_type, r.status, r.attempts, at(r.started_ms), at(r.finished_ms), r.duration_ms];
    entry.push(r.error ?? null, r.reason ?? null, r.logs.length ? r.logs.map((l) => compactLog(l, t0)) : null);
    while (entry.length > 3 && entry[entry.length - 1] === null) entry.pop();
    return entry;
  });
  return { t0, nodes };
}

function compactLog(l: LogEntry, t0: number): unknown {
  const time = Date.parse(l.time);
  if (Number.isNaN(time)) return l; // kept as it came
  return l.level === 'info' ? [time - t0, l.message] : [time - t0, l.message, l.level];
}

function fullLog(l: unknown, t0: number): LogEntry {
  if (!Array.isArray(l)) return l as LogEntry;
  return { level: (l[2] as LogEntry['level'] | undefined) ?? 'info', message: l[1] as string, time: new Date(t0 + (l[0] as number)).toISOString() };
}

/** A compact run's node records as execution_nodes rows would give them (no payloads: inputs and outputs empty). */
export function nodeRowsOf(executionId: string, runs: CompactNodeRuns | null | undefined): NodeRow[] {
  if (!runs) return [];
  const time = (v: unknown) => (typeof v === 'number' ? new Date(runs.t0 + v) : null);
  return runs.nodes.map((n) => ({
    executionId,
    nodeId: n[0] as string,
    nodeType: n[1] as string,
    status: n[2] as string,
    inputs: {},
    outputs: {},
    logs: ((n[9] as unknown[] | undefined) ?? []).map((l) => fullLog(l, runs.t0)),
    error: (n[7] as NodeRow['error'] | undefined) ?? null,
    attempts: (n[3] as number | undefined) ?? 0,
    startedAt: time(n[4]),
    finishedAt: time(n[5]),
    durationMs: (n[6] as number | null | undefined) ?? null,
    emit: null,
    reason: (n[8] as NodeRow['reason'] | undefined) ?? null,
    refs: null,
    payloadsZ: null,
  }));
}

/**
 * `cross join lateral` the compact node records of the executions row named `e`, as a relation `n` with the columns
 * the aggregates read of execution_nodes (node_id, node_type, status, error, attempts, duration_ms, reason): a query
 * over node records adds a `union all` branch `from executions e ${compactNodes('e')}` to its execution_nodes one.
 * Rows without compact records give none.
 */
export function compactNodes(e: string): SQL {
  return sql.raw(`cross join lateral (select r.v->>0 as node_id, r.v->>1 as node_type, r.v->>2 as status,
    case when json_typeof(r.v->7) = 'object' then (r.v->7)::jsonb end as error,
    coalesce((r.v->>3)::int, 0) as attempts, (r.v->>6)::int as duration_ms, r.v->>8 as reason
    from json_array_elements(${e}.node_runs->'nodes') as r(v)) n`);
}
