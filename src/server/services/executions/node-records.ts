import { eq, sql, type SQL } from 'drizzle-orm';
import type { NodeRun } from '@/engine/execute-node';
import type { RunResult } from '@/engine/run';
import type { Db } from '@/server/db/client';
import { jsonText } from '@/server/db/json';
import { rowsOf } from '@/server/db/rows';
import { executionNodes } from '@/server/db/schema';
import { logger } from '@/server/logger';
import { resolveRefs, SlotRegistry } from './record-refs';

/** A node's run as stored: the engine's record plus the node's type. */
export interface NodeRecord extends NodeRun {
  node_id: string;
  node_type: string;
}

export function nodeRecord(nodeId: string, nodeType: string, run: NodeRun): NodeRecord {
  return { ...run, node_id: nodeId, node_type: nodeType };
}

/**
 * Node records as the SQL functions of migration 0018 take them: one JSON parameter, whatever the node count. Values
 * met twice are stored once (`registry`: the slots earlier writes of this run stored; by default only this one's).
 */
function recordsParam(records: NodeRecord[], registry = new SlotRegistry()): { json: SQL; commit: () => void } {
  const compacted = registry.compact(records);
  return { json: sql`${jsonText(compacted.records)}::jsonb`, commit: compacted.commit };
}

/** An execution's node records as stored, each value in place (references resolved). */
export async function readNodeRecords(db: Db, executionId: string) {
  return resolveRefs(await db.select().from(executionNodes).where(eq(executionNodes.executionId, executionId)));
}

/**
 * Writes (or rewrites) node records of an execution in one statement (`save_node_records`); with `runningSince`,
 * the same statement marks a queued execution running (a worker's first progress write).
 */
export async function saveNodeRecords(db: Db, executionId: string, records: NodeRecord[], runningSince: Date | null = null, registry?: SlotRegistry): Promise<void> {
  if (records.length === 0) return;
  const param = recordsParam(records, registry);
  await db.execute(sql`select save_node_records(${executionId}::uuid, ${param.json}, ${runningSince?.toISOString() ?? null}::timestamptz)`);
  param.commit();
}

/**
 * Writes the end of an execution — its status, outputs, error and timing, and every node's record — as one
 * statement (`save_execution_result`: the update and the records' insert), so the result is stored whole or not at all.
 */
export async function saveResult(db: Db, executionId: string, records: NodeRecord[], result: RunResult, startedAt: Date, registry?: SlotRegistry): Promise<void> {
  const finishedAt = new Date();
  const param = recordsParam(records, registry);
  await db.execute(sql`select save_execution_result(${executionId}::uuid, ${result.status}, ${jsonText(result.outputs)}::jsonb,
    ${result.error ? jsonText(result.error) : null}::jsonb, ${finishedAt.toISOString()}::timestamptz, ${startedAt.toISOString()}::timestamptz,
    ${finishedAt.getTime() - startedAt.getTime()}, ${param.json})`);
  param.commit();
}

/**
 * Ends an execution that is still queued or running as `failed` with `error` (its node records as they are),
 * which frees its organization's slot: for a run whose result could not be stored, or whose job was given up.
 * Resolves to whether it was still open.
 */
export async function failExecution(db: Db, executionId: string, error: { node_id: string | null; code: string; message: string }): Promise<boolean> {
  const result = await db.execute(sql`update executions set status = 'failed', error = ${jsonText(error)}::jsonb, finished_at = now(),
    duration_ms = case when started_at is null then null else (extract(epoch from now() - started_at) * 1000)::integer end
    where id = ${executionId}::uuid and status in ('queued', 'running') returning id`);
  return rowsOf(result).length > 0;
}

/**
 * Live node records of an execution run by a worker: changes are gathered and written together at most
 * every `intervalMs` (the editor and the runs page show progress from them), and at once, before the run
 * goes on, after a node wrote to an outside system — so a run resumed after a crash keeps that node
 * instead of writing again. The result's write then needs only the records that changed since: a node's
 * final record already written (its inputs and outputs are the bulk of a run's data) is not written again.
 */
export class NodeProgress {
  private pending = new Map<string, { record: NodeRecord; run?: NodeRun }>();
  /** The run object each node's stored record was made of (only runs written, and landed, as they are). */
  private readonly stored = new Map<string, NodeRun>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** The slots this run's writes stored in full, for the result's write to refer to as well. */
  readonly slots = new SlotRegistry();

  constructor(
    private readonly db: Db,
    private readonly executionId: string,
    /** null: only the writes after outside writes (nobody watches the run live). */
    private readonly intervalMs: number | null,
    /** Set when the execution is still queued: the first write also marks it running. */
    private runningSince: Date | null = null,
    /** Records already stored for this execution (kept from an interrupted attempt). */
    already: Record<string, NodeRun> = {},
  ) {
    for (const [id, run] of Object.entries(already)) this.stored.set(id, run);
  }

  /** A node's record to write; `run`, when the record is that run as it stays (a node's final run). */
  note(record: NodeRecord, run?: NodeRun): void {
    this.pending.set(record.node_id, { record, run });
    if (this.intervalMs !== null) this.timer ??= setTimeout(() => void this.flush().catch((e: unknown) => logger.warn('node progress not written', { error: String(e) })), this.intervalMs);
  }

  /** Writes what changed since the last write; resolves when it is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.writing;
    const batch = [...this.pending.values()];
    this.pending.clear();
    // one write at a time, in order: a later state of a node never lands before an earlier one
    const runningSince = this.runningSince;
    this.runningSince = null;
    this.writing = this.writing
      .catch(() => {})
      .then(() => saveNodeRecords(this.db, this.executionId, batch.map((b) => b.record), runningSince, this.slots))
      .then(() => {
        for (const b of batch) {
          if (b.run) this.stored.set(b.record.node_id, b.run);
          else this.stored.delete(b.record.node_id);
        }
      });
    return this.writing;
  }

  /** Whether this node's stored record is this run already (the result's write can leave it out). */
  holds(nodeId: string, run: NodeRun): boolean {
    return this.stored.get(nodeId) === run;
  }

  /** Stops writing (the result's write takes over) once any write under way has landed. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    await this.writing.catch(() => {});
  }
}
