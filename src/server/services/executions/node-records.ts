import { eq, sql, type SQL } from 'drizzle-orm';
import type { NodeRun } from '@/engine/execute-node';
import type { RunResult } from '@/engine/run';
import type { Db } from '@/server/db/client';
import { jsonText } from '@/server/db/json';
import { rowsOf } from '@/server/db/rows';
import { executionNodes, executions, type CompactNodeRuns } from '@/server/db/schema';
import { logger } from '@/server/logger';
import { noteAdmitted } from '@/server/queue/admitted';
import type { DataPolicy } from '@/shared/data-settings';
import { endedOutsideEngine, keepRecord, keepsInput, keepsNodeRows, payloadKeeping, payloadState, type Keeping } from './data-policy';
import { compactNodeRuns, nodeRowsOf } from './node-runs';
import { resolveRefs, SlotRegistry } from './record-refs';
import { endsStatement, takeSuccessors, type EndRow } from './ends-batch';
import { writeResult } from './result-writer';
import { DROP_INPUTS, unpackInputs } from './stored-inputs';
import { packOutputs, recordText, withPayloads } from './stored-payloads';

/** A node's run as stored: the engine's record plus the node's type. */
export interface NodeRecord extends NodeRun {
  node_id: string;
  node_type: string;
}

export function nodeRecord(nodeId: string, nodeType: string, run: NodeRun): NodeRecord {
  return { ...run, node_id: nodeId, node_type: nodeType };
}

const RECORD_COLUMNS = sql.raw(
  'node_id text, node_type text, status text, inputs jsonb, outputs jsonb, logs jsonb, error jsonb, attempts integer, ' +
    'started_ms double precision, finished_ms double precision, duration_ms integer, emit jsonb, reason text, refs jsonb, payloads_z text',
);
const NODE_COLUMNS = [
  'node_type',
  'status',
  'inputs',
  'outputs',
  'logs',
  'error',
  'attempts',
  'started_at',
  'finished_at',
  'duration_ms',
  'emit',
  'reason',
  'refs',
  'payloads_z',
];
/** What each column gets from a record (the engine's epoch milliseconds become timestamps; deflated payloads come as base64). */
const FROM_RECORD = NODE_COLUMNS.map((c) =>
  c.endsWith('_at') ? `to_timestamp(r.${c.replace('_at', '_ms')} / 1000.0)` : c === 'payloads_z' ? `decode(r.${c}, 'base64')` : `r.${c}`,
);
const UPSERT = sql.raw(`on conflict (execution_id, node_id) do update set ${NODE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`);

/**
 * `insert … select` of node records sent as one JSON parameter: one statement, whatever the node count. Values
 * met twice are stored once (`registry`: the slots earlier writes of this run stored; by default only this one's).
 * Each record is first cut to what `keeping` keeps (data-policy.ts); `bytes` gives the size of each record as stored
 * (its JSON, with deflated payloads counted as deflated: stored-payloads.ts).
 */
function upsertNodes(executionId: SQL, records: NodeRecord[], keeping: Keeping, from = sql``, registry = new SlotRegistry()) {
  const compacted = registry.compact(keeping === 'all' ? records : records.map((r) => keepRecord(r, keeping)));
  const stored = compacted.records.map((r) => recordText(r));
  const texts = stored.map((s) => s.text);
  const bytes = new Map(compacted.records.map((r, i) => [r.node_id, stored[i]!.bytes]));
  const statement = upsertFrom(executionId, sql`${from} jsonb_to_recordset(${`[${texts.join(',')}]`}::jsonb)`);
  return { statement, commit: compacted.commit, bytes, texts };
}

/** The upsert into execution_nodes of the records of `source` (a recordset of RECORD_COLUMNS, named `r` here). */
function upsertFrom(executionId: SQL, source: SQL): SQL {
  return sql`insert into execution_nodes (execution_id, node_id, ${sql.raw(NODE_COLUMNS.join(', '))})
    select ${executionId}, r.node_id, ${sql.raw(FROM_RECORD.join(', '))}
    from ${source} as r(${RECORD_COLUMNS}) ${UPSERT}`;
}

/**
 * An execution's node records as stored, each value in place (references resolved): its execution_nodes rows and,
 * for a run that ended keeping no payload, those stored compactly in its row (node-runs.ts; `compact`, when the
 * caller read that row already).
 */
export async function readNodeRecords(db: Db, executionId: string, compact?: CompactNodeRuns | null) {
  const [rows, runs] = await Promise.all([
    db.select().from(executionNodes).where(eq(executionNodes.executionId, executionId)),
    compact !== undefined
      ? compact
      : db
          .select({ nodeRuns: executions.nodeRuns })
          .from(executions)
          .where(eq(executions.id, executionId))
          .then((r) => r[0]?.nodeRuns ?? null),
  ]);
  return [...resolveRefs(rows.map(withPayloads)), ...nodeRowsOf(executionId, runs)];
}

/**
 * Writes (or rewrites) node records of an execution in one statement; with `runningSince`, the same
 * statement marks a queued execution running (a worker's first progress write). `keeping`: what of their
 * payloads the records keep (data-policy.ts; everything by default: test and step runs). Resolves to each
 * record's size as stored.
 */
export async function saveNodeRecords(
  db: Db,
  executionId: string,
  records: NodeRecord[],
  runningSince: Date | null = null,
  registry?: SlotRegistry,
  keeping: Keeping = 'all',
): Promise<Map<string, number>> {
  if (records.length === 0) return new Map();
  const upsert = upsertNodes(sql`${executionId}::uuid`, records, keeping, sql``, registry);
  if (!runningSince) await db.execute(upsert.statement);
  else {
    const running = sql`update executions set status = 'running', started_at = coalesce(started_at, ${runningSince.toISOString()}::timestamptz)
      where id = ${executionId}::uuid and status = 'queued'`;
    await db.execute(sql`with s as (${running}) ${upsert.statement}`);
  }
  upsert.commit();
  return upsert.bytes;
}

/** What the end of a run keeps: the policy it applies, its input (to size it, and to drop it), and the bytes earlier writes left stored. */
export interface ResultData {
  policy: DataPolicy;
  inputs: Record<string, unknown>;
  /** JSON bytes of the node records stored earlier and not written again by this write. */
  heldBytes?: number;
  /** A statement committed with the end, in the same statement (the run's queue job completed: queue/worker.ts). */
  completion?: SQL;
  /**
   * The process instance whose claim the run is (queue/claims.ts): the end is written only while the row is still claimed
   * by it (a process thought dead, whose runs were handed on, writes nothing), and releases the claim.
   */
  claimedBy?: string;
  /**
   * The process instance this run ended in, on a database shared by several: the same statement takes the queued runs
   * another process holds to start after this one (an MLLP connection's next message), claimed for this one, which runs
   * them next (queue/held-runs.ts). saveResult resolves to their ids.
   */
  takeFor?: string;
  /**
   * With `takeFor`: whether the run's end is told to the other processes (ends-batch.ts takeSuccessors) even if it took
   * nothing — it came from the queue or was taken from another process, which may count it or hold a run after it.
   */
  tell?: boolean;
}

/**
 * Writes the end of an execution — its status, outputs, error and timing, and every node's record — as
 * one statement (an `update` and the node `insert` in one WITH), so the result is stored whole or not at all; the
 * ends of runs finishing while another is being written are committed together.
 * What it keeps is the policy's (`payloadKeeping` at the run's final status): the execution's input and outputs
 * and the records' payloads go when it keeps none; the sizes and the policy are recorded either way. A run whose
 * records stay no rows (`keepsNodeRows`: it kept no payload and did not fail) gets them all, `records`, in its
 * executions row instead (node-runs.ts), and the same statement deletes any row a progress write left.
 */
export async function saveResult(
  db: Db,
  executionId: string,
  records: NodeRecord[],
  result: RunResult,
  startedAt: Date,
  registry: SlotRegistry | undefined,
  data: ResultData,
): Promise<string[]> {
  const finishedAt = new Date();
  const keeping = payloadKeeping(data.policy, result.status);
  const outputs = jsonText(result.outputs);
  const inputBytes = Buffer.byteLength(jsonText(data.inputs));
  const outputBytes = Buffer.byteLength(outputs);
  const keepInput = keepsInput(data.policy, result.status);
  const rows = keepsNodeRows(data.policy, result.status);
  const upsert = rows ? upsertNodes(sql`e.id`, records, keeping, sql`e,`, registry) : null;
  const compact = rows ? null : jsonText(compactNodeRuns(records.map((r) => keepRecord(r, keeping))));
  let stored = upsert ? (data.heldBytes ?? 0) : compact!.length;
  for (const b of upsert?.bytes.values() ?? []) stored += b;
  // the outputs kept: as JSON, or deflated when large (stored-payloads.ts)
  const kept = keepInput ? packOutputs(outputs) : { json: null, z: null };
  if (keepInput) stored += inputBytes + (kept.z ? kept.z.length : outputBytes);
  const held = claimCondition(data.claimedBy);
  const update = sql`update executions set status = ${result.status}, outputs = ${kept.json}::jsonb, outputs_z = ${kept.z}::bytea,
    error = ${result.error ? jsonText(result.error) : null}::jsonb, finished_at = ${finishedAt.toISOString()}::timestamptz,
    started_at = coalesce(started_at, ${startedAt.toISOString()}::timestamptz),
    duration_ms = ${finishedAt.getTime() - startedAt.getTime()}, data_policy = ${data.policy},
    payloads = ${payloadState(data.policy, result.status)}, input_bytes = ${inputBytes}, output_bytes = ${outputBytes},
    stored_bytes = ${stored}${keepInput ? sql`` : sql`, ${DROP_INPUTS}`}${compact ? sql`, node_runs = ${compact}::json` : sql``}${held.set}
    where id = ${executionId}::uuid${held.where} returning id, trigger`;
  // the ends of runs finishing together share a commit (result-writer.ts): in one statement, those with no queue job to
  // settle in it (`batched`: the same values, for ends-batch.ts)
  const settle = data.completion ? sql`, j as (${data.completion})` : sql``;
  const nodes = upsert ? upsert.statement : sql`delete from execution_nodes n using e where n.execution_id = e.id`;
  const batched: EndRow | undefined = data.completion
    ? undefined
    : {
        id: executionId,
        status: result.status,
        outputs: kept.json,
        outputsZ: kept.z ? kept.z.toString('base64') : null,
        error: result.error ? jsonText(result.error) : null,
        finishedAt: finishedAt.toISOString(),
        startedAt: startedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        policy: data.policy,
        payloads: payloadState(data.policy, result.status),
        inputBytes,
        outputBytes,
        storedBytes: stored,
        keepInput,
        nodeRuns: compact,
        records: upsert ? upsert.texts : null,
        claimedBy: data.claimedBy ?? null,
        takeFor: data.takeFor ?? null,
        tell: data.tell ?? false,
      };
  const ended = sql`(select id, trigger, ${data.takeFor}::uuid as take_for, ${data.tell ?? false}::boolean as tell from e)`;
  const statement = data.takeFor
    ? sql`with e as (${update})${settle}, u as (${nodes}), ${takeSuccessors(ended)}`
    : sql`with e as (${update})${settle} ${nodes}`;
  const taken = await writeResult(db, { statement, batched, takes: data.takeFor ? executionId : undefined }, endsTogether);
  upsert?.commit();
  // the runs taken come with their row: their run here need not read it (queue/admitted.ts)
  for (const r of taken) {
    noteAdmitted(r.id, {
      orgId: r.org_id,
      pipelineId: r.pipeline_id,
      pipelineVersion: r.pipeline_version,
      trigger: r.trigger,
      inputs: unpackInputs(r.inputs, r.inputs_z),
      policy: r.policy,
    });
  }
  return taken.map((r) => r.id);
}

/** The ends of several runs (none settling a queue job) in one statement: ends-batch.ts with this file's record upsert. */
const endsTogether = (rows: EndRow[]): SQL => endsStatement(rows, upsertFrom);

/** An end's write of a run claimed by a process (queue/claims.ts): only while it holds the claim, which the write releases. */
function claimCondition(claimedBy: string | undefined): { set: SQL; where: SQL } {
  if (!claimedBy) return { set: sql``, where: sql`` };
  return { set: sql`, claimed_by = null`, where: sql` and claimed_by = ${claimedBy}::uuid` };
}

/**
 * Ends an execution that is still queued or running as `failed` with `error` (its node records as they are),
 * which frees its organization's slot: for a run whose result could not be stored, or whose job was given up.
 * Resolves to whether it was still open.
 */
export async function failExecution(
  db: Db,
  executionId: string,
  error: { node_id: string | null; code: string; message: string },
  claimedBy?: string,
): Promise<boolean> {
  const held = claimCondition(claimedBy);
  const result = await db.execute(sql`update executions set status = 'failed', error = ${jsonText(error)}::jsonb, finished_at = now(),
    duration_ms = case when started_at is null then null else (extract(epoch from now() - started_at) * 1000)::integer end${held.set}
    where id = ${executionId}::uuid and status in ('queued', 'running')${held.where} returning id`);
  if (rowsOf(result).length === 0) return false;
  await db.execute(endedOutsideEngine(sql`${executionId}::uuid`)); // what it keeps, as the policy says
  return true;
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
  /** JSON bytes of each node's record as last stored. */
  private readonly bytes = new Map<string, number>();
  /** What these writes keep of payloads (the policy's, mid-run). */
  readonly keeping: Keeping;

  constructor(
    private readonly db: Db,
    private readonly executionId: string,
    /** null: only the writes after outside writes (nobody watches the run live). */
    private readonly intervalMs: number | null,
    /** Set when the execution is still queued: the first write also marks it running. */
    private runningSince: Date | null = null,
    /** Records already stored for this execution (kept from an interrupted attempt). */
    already: Record<string, NodeRun> = {},
    /** The data policy the run applies. */
    policy: DataPolicy = 'full',
  ) {
    for (const [id, run] of Object.entries(already)) this.stored.set(id, run);
    this.keeping = payloadKeeping(policy, 'running');
  }

  /** A node's record to write; `run`, when the record is that run as it stays (a node's final run). */
  note(record: NodeRecord, run?: NodeRun): void {
    this.pending.set(record.node_id, { record, run });
    if (this.intervalMs !== null)
      this.timer ??= setTimeout(() => void this.flush().catch((e: unknown) => logger.warn('node progress not written', { error: String(e) })), this.intervalMs);
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
      .then(() =>
        saveNodeRecords(
          this.db,
          this.executionId,
          batch.map((b) => b.record),
          runningSince,
          this.slots,
          this.keeping,
        ),
      )
      .then((bytes) => {
        for (const [id, n] of bytes) this.bytes.set(id, n);
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

  /** JSON bytes of the stored records of nodes other than `rewritten` (those the result's write leaves as they are). */
  heldBytes(rewritten: Set<string>): number {
    let n = 0;
    for (const [id, b] of this.bytes) if (!rewritten.has(id)) n += b;
    return n;
  }

  /** Stops writing (the result's write takes over) once any write under way has landed. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    await this.writing.catch(() => {});
  }
}
