import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { inputColumnBytes } from '../executions/stored-inputs';
import { payloadColumnBytes } from '../executions/stored-payloads';

/** What one statement removed. */
export interface Removed {
  runs: number;
  bytes: number;
}

/**
 * A finished run no one is using: not queued or running (a step session's run is `running` while it waits), not the
 * run a queued or running retry was started from, not one a live step session is on. Rows this condition keeps stay
 * at the front of the pruner's walk and are looked at again next time.
 */
const UNUSED = sql.raw(`e.status in ('completed', 'failed', 'cancelled')
  and not exists (select 1 from executions r where r.retry_of = e.id and r.status in ('queued', 'running'))
  and not exists (select 1 from step_sessions s where s.execution_id = e.id and s.status = 'waiting' and s.expires_at > now())`);

/**
 * Bytes of a node record as Postgres stores it: each value's stored size (compressed, or its TOAST size — read from the
 * pointer, the value itself is not fetched) and ~70 bytes of tuple header and fixed columns.
 */
const NODE_PAYLOAD_BYTES_TEXT = [
  payloadColumnBytes('n'),
  'pg_column_size(n.logs)',
  'coalesce(pg_column_size(n.emit), 0)',
  'coalesce(pg_column_size(n.refs), 0)',
].join(' + ');
const NODE_PAYLOAD_BYTES = sql.raw(NODE_PAYLOAD_BYTES_TEXT);
export const NODE_BYTES = sql.raw(
  `70 + ${NODE_PAYLOAD_BYTES_TEXT} + pg_column_size(n.node_id) + pg_column_size(n.node_type) + pg_column_size(n.status) + coalesce(pg_column_size(n.error), 0)`,
);
const RUN_PAYLOAD_BYTES_TEXT = `${inputColumnBytes('e')} + coalesce(pg_column_size(e.outputs), 0) + coalesce(pg_column_size(e.outputs_z), 0)`;
const RUN_PAYLOAD_BYTES = sql.raw(RUN_PAYLOAD_BYTES_TEXT);
/** A run's row: its payloads, and its node records when stored there (node-runs.ts). */
export const RUN_BYTES = sql.raw(
  `120 + ${RUN_PAYLOAD_BYTES_TEXT} + pg_column_size(e.trigger) + coalesce(pg_column_size(e.error), 0) + coalesce(pg_column_size(e.node_runs), 0)`,
);

function removed(result: unknown): Removed {
  const [row] = rowsOf<{ runs: number | string | null; bytes: number | string | null }>(result);
  return { runs: Number(row?.runs ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/**
 * Deletes up to `limit` of a pipeline's finished runs created before `before`, oldest first, with their node records,
 * in one statement (one short transaction). Rows another transaction holds are skipped, not waited for.
 */
export async function deleteRunsBefore(db: Db, pipelineId: string, before: Date, limit: number): Promise<Removed> {
  return removed(
    await db.execute(sql`with doomed as (
        select e.id, ${RUN_BYTES} as bytes from executions e
        where e.pipeline_id = ${pipelineId}::uuid and e.created_at < ${before.toISOString()}::timestamptz and ${UNUSED}
        order by e.created_at limit ${limit} for update skip locked
      ),
      nodes as (delete from execution_nodes n using doomed d where n.execution_id = d.id returning ${NODE_BYTES} as bytes),
      runs as (delete from executions e using doomed d where e.id = d.id returning d.bytes)
      select (select count(*) from runs) as runs,
        (select coalesce(sum(bytes), 0) from runs) + (select coalesce(sum(bytes), 0) from nodes) as bytes`),
  );
}

/**
 * Removes the payloads of up to `limit` of a pipeline's finished runs created before `before` that still have them,
 * oldest first: the run's input and outputs, and each node's inputs, outputs, logs (which may quote the data) and
 * emitted value. What stays is what the execution list, the stats and the timeline read: status, timings, errors,
 * attempts, skip reasons. The run is marked `payloads = 'pruned'`. One statement, rows in use by others skipped.
 */
export async function prunePayloadsBefore(db: Db, pipelineId: string, before: Date, limit: number): Promise<Removed> {
  return removed(
    await db.execute(sql`with held as (
        select e.id, ${RUN_PAYLOAD_BYTES} as bytes from executions e
        where e.pipeline_id = ${pipelineId}::uuid and e.payloads in ('kept', 'input')
          and e.created_at < ${before.toISOString()}::timestamptz and ${UNUSED}
        order by e.created_at limit ${limit} for update skip locked
      ),
      old as (select n.execution_id, n.node_id, ${NODE_PAYLOAD_BYTES} as bytes from execution_nodes n join held h on h.id = n.execution_id),
      nodes as (
        update execution_nodes n set inputs = '{}'::jsonb, outputs = '{}'::jsonb, payloads_z = null, logs = '[]'::jsonb, emit = null, refs = null
        from old o where n.execution_id = o.execution_id and n.node_id = o.node_id returning o.bytes
      ),
      runs as (
        update executions e set inputs = '{}'::jsonb, inputs_z = null, outputs = null, outputs_z = null, payloads = 'pruned'
        from held h where e.id = h.id returning h.bytes
      )
      select (select count(*) from runs) as runs,
        (select coalesce(sum(bytes), 0) from runs) + (select coalesce(sum(bytes), 0) from nodes) as bytes`),
  );
}

/**
 * The creation time of a pipeline's `keep`-th newest finished run: runs created before it are beyond its
 * max_executions. Null when it has no more than `keep`.
 */
export async function countBoundary(db: Db, pipelineId: string, keep: number): Promise<Date | null> {
  const [row] = rowsOf<{ created_at: string | Date }>(
    await db.execute(sql`select created_at from executions e where e.pipeline_id = ${pipelineId}::uuid and e.status in ('completed', 'failed', 'cancelled')
      order by e.created_at desc offset ${keep - 1} limit 1`),
  );
  return row ? new Date(row.created_at) : null;
}
