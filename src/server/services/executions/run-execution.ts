import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { emptyRun, type NodeRun } from '@/engine/execute-node';
import { getNodeType } from '@/engine/nodes';
import { planOf } from '@/engine/plan';
import { runPipeline, type RunResult } from '@/engine/run';
import type { Db } from '@/server/db/client';
import { errorForLog, logger } from '@/server/logger';
import { preparedPerDb } from '@/server/db/prepared';
import { executions, organizations, pipelines } from '@/server/db/schema';
import { DEFAULT_DATA_SETTINGS, type DataPolicy } from '@/shared/data-settings';
import type { PipelineDefinition } from '@/shared/pipeline';
import type { RunHost } from '../context';
import { loadDefinition } from './runnable-pipeline';
import { failExecution, NodeProgress, nodeRecord, readNodeRecords, saveResult } from './node-records';
import { appliedPolicy, keepsNodeRows, payloadKeeping, pipelinePolicy, writesOutside, type Keeping } from './data-policy';
import { toNodeRun } from './execution-views';
import { takeAdmitted } from '@/server/queue/admitted';
import { inputColumns, withInputs } from './stored-inputs';
import { alertOnFailure } from '../alerts/on-run-failed';

/** How often a worker's run writes its nodes' progress (the editor shows it live). */
const PROGRESS_INTERVAL_MS = 250;

export interface RunExecutionOptions {
  /** Node runs taken over unchanged (retry). Without it, finished nodes of an interrupted run are kept. */
  carried?: Record<string, NodeRun>;
  inputOverrides?: Record<string, Record<string, unknown>>;
  /** A retry's idempotency keys: those of the run it retried (see retry-root.ts). */
  idempotencyId?: string;
  /** "Run to here": only this node and its upstream run (test runs inside their request). */
  runTo?: string;
  signal?: AbortSignal;
  /**
   * A run inside the request that started it (sync, retry): the caller has the definition and the row's
   * values, and nobody watches it live, so node records are written with the result (and after writes).
   */
  inline?: {
    orgId: string;
    pipelineId: string;
    trigger: string;
    definition: PipelineDefinition;
    inputs: Record<string, unknown>;
    testMode: boolean;
    startedAt: Date;
    /** The pipeline's data policy as its admission read it (Started.policy); read here when absent. */
    policy?: DataPolicy | null;
  };
  /** A queue job's first delivery: nobody has run this execution yet (see `take`). */
  firstDelivery?: boolean;
  /** A queue job's last delivery: if this attempt fails too, the execution ends failed instead of staying open. */
  lastDelivery?: boolean;
  /**
   * A queue job's completion, written by the result's own statement (one write ends the run and settles its job);
   * `done` is called once that write committed. Without it (or when the result is not stored) the queue completes it.
   */
  completion?: { statement?: SQL; claimedBy?: string; done(): void; successors?: Successors };
}

/**
 * The runs held by another process to start after this one (an MLLP connection's next messages), taken by this run's end
 * for `takeFor` (saveResult), then handed to `taken` to run next.
 */
export interface Successors {
  takeFor: string;
  taken(executionIds: string[]): void;
  /** Whether the run's end concerns other processes (ResultData.tell). */
  tell: boolean;
}

const readQueued = preparedPerDb((db) =>
  db
    .select({
      orgId: executions.orgId,
      pipelineId: executions.pipelineId,
      pipelineVersion: executions.pipelineVersion,
      ...inputColumns,
      testMode: executions.testMode,
      status: executions.status,
      trigger: executions.trigger,
      policy: pipelinePolicy,
    })
    .from(executions)
    .leftJoin(pipelines, eq(pipelines.id, executions.pipelineId))
    .leftJoin(organizations, eq(organizations.id, pipelines.orgId))
    .where(eq(executions.id, sql.placeholder('id')))
    .prepare('read_queued_execution'),
);

const readPolicy = preparedPerDb((db) =>
  db
    .select({ policy: pipelinePolicy })
    .from(pipelines)
    .innerJoin(organizations, eq(organizations.id, pipelines.orgId))
    .where(eq(pipelines.id, sql.placeholder('id')))
    .prepare('read_data_policy'),
);

/** The data policy a run applies (data-policy.ts): test runs keep everything without asking; a deleted pipeline's runs, the default. */
async function policyOf(db: Db, pipelineId: string, run: { testMode: boolean; trigger: string }, known?: DataPolicy | null): Promise<DataPolicy> {
  if (run.testMode || run.trigger === 'step') return 'full';
  const policy = known ?? (await readPolicy(db).execute({ id: pipelineId }))[0]?.policy ?? DEFAULT_DATA_SETTINGS.policy;
  return appliedPolicy(policy, run);
}

/**
 * Takes the execution a queue job names. On the job's first delivery the row is only read: it turns
 * `running` with its first progress write, or goes straight to its result when the run is shorter than
 * that — a write (and a commit) less per execution. A redelivered job (its worker died, or it failed)
 * claims the row at once and keeps what an earlier attempt finished.
 */
async function take(db: Db, executionId: string, firstDelivery: boolean) {
  if (firstDelivery) {
    // an execution this process admitted itself (the MLLP feed) comes with the row it wrote
    const admitted = takeAdmitted(executionId);
    const [row] = admitted ? [{ ...admitted, testMode: false, status: 'queued' }] : (await readQueued(db).execute({ id: executionId })).map(withInputs);
    if (row?.status === 'queued') {
      return { ...row, policy: await policyOf(db, row.pipelineId, row, row.policy), startedAt: new Date(), previousStart: null, markRunning: true };
    }
  }
  const claimed = await claim(db, executionId);
  return claimed && { ...claimed, policy: await policyOf(db, claimed.pipelineId, claimed), markRunning: false };
}

/**
 * Takes a queued (or interrupted) execution: marks it running and tells whether an earlier attempt had
 * started it. Nothing when it already finished or was cancelled (a redelivered job) or no longer exists.
 */
async function claim(db: Db, executionId: string) {
  const previous = db.select({ startedAt: executions.startedAt }).from(executions).where(eq(executions.id, executionId)).as('previous');
  const now = new Date();
  const [row] = await db
    .update(executions)
    // a resumed run keeps its first start, so its duration counts the time lost to the crash
    .set({ status: 'running', startedAt: sql`coalesce(${executions.startedAt}, ${now.toISOString()}::timestamptz)` })
    .from(previous)
    .where(and(eq(executions.id, executionId), inArray(executions.status, ['queued', 'running'])))
    .returning({
      orgId: executions.orgId,
      pipelineId: executions.pipelineId,
      pipelineVersion: executions.pipelineVersion,
      ...inputColumns,
      testMode: executions.testMode,
      trigger: executions.trigger,
      previousStart: previous.startedAt,
    });
  return row ? { ...withInputs(row), startedAt: row.previousStart ?? now } : null;
}

/**
 * Nodes of an interrupted run that finished: kept, so nothing they wrote is written again. Under a policy that
 * keeps no payload mid-run, only nodes that wrote to an outside system kept their outputs (data-policy.ts): the
 * others run again.
 */
async function finishedNodes(db: Db, executionId: string, keeping: Keeping): Promise<Record<string, NodeRun>> {
  const rows = await readNodeRecords(db, executionId);
  const finished = rows.filter((n) => (n.status === 'completed' || n.status === 'simulated') && (keeping === 'all' || writesOutside(n.nodeType)));
  return Object.fromEntries(finished.map((n) => [n.nodeId, toNodeRun(n)]));
}

/**
 * Runs an execution whose row exists, on the pipeline version it was started on, and stores the result
 * (every node's record and the final status in one statement). A worker's run writes node progress as it
 * goes; a run picked up again after a crash keeps the nodes that had finished. Resolves to null when
 * there was nothing to run (the execution had finished, was cancelled, or is gone). Its nodes call what `rt.host` lends.
 */
export async function runExecution(rt: RunHost, executionId: string, opts: RunExecutionOptions = {}): Promise<RunResult | null> {
  if (!opts.lastDelivery) return ended(rt, executionId, await run(rt, executionId, opts));
  const { db } = rt;
  try {
    return ended(rt, executionId, await run(rt, executionId, opts));
  } catch (e) {
    logger.error('execution given up after its last attempt', { executionId, error: errorForLog(e) });
    await failExecution(db, executionId, {
      node_id: null,
      code: 'RUN_ABANDONED',
      message: 'The run failed on every attempt (the service could not run or store it) and was given up.',
    });
    alertOnFailure(db, executionId, alertRunner(rt));
    throw e;
  }
}

/** A run that ended failed may alert (issue 30 §1: its pipeline's error pipeline; see services/alerts). */
function ended(rt: RunHost, executionId: string, result: RunResult | null): RunResult | null {
  if (result?.status === 'failed') alertOnFailure(rt.db, executionId, alertRunner(rt));
  return result;
}

/** How an alert runs the error pipeline it started: on this run's host. */
function alertRunner(rt: RunHost) {
  return (db: RunHost['db'], id: string) => runExecution({ ...rt, db }, id);
}

async function run(rt: RunHost, executionId: string, opts: RunExecutionOptions): Promise<RunResult | null> {
  const { db } = rt;
  let job = opts.inline;
  let carried = opts.carried;
  /** Node records this execution has stored already (an interrupted attempt's finished nodes). */
  let stored: Record<string, NodeRun> = {};
  let runningSince: Date | null = null;
  let policy: DataPolicy;
  if (!job) {
    const row = await take(db, executionId, opts.firstDelivery ?? false);
    if (!row) return null;
    const definition = await loadDefinition(db, row.pipelineId, row.pipelineVersion);
    const { orgId, pipelineId, trigger, inputs, testMode, startedAt } = row;
    job = { orgId, pipelineId, trigger, definition, inputs, testMode, startedAt };
    policy = row.policy;
    if (!carried) carried = stored = row.previousStart ? await finishedNodes(db, executionId, payloadKeeping(policy, 'running')) : {};
    if (row.markRunning) runningSince = row.startedAt;
  } else {
    policy = job.testMode ? 'full' : await policyOf(db, job.pipelineId, { testMode: false, trigger: job.trigger }, job.policy);
  }
  const { graph } = planOf(job.definition, getNodeType);
  const typeOf = (id: string) => graph.nodes.get(id)?.def.type ?? 'unknown';
  // progress is written for the live view of runs that keep their payloads; under `errors` and `metadata` a run writes
  // nothing mid-run (no running mark, no records to be dropped at the end) but after a write to an outside system
  const live = !opts.inline && policy === 'full';
  const progress = new NodeProgress(db, executionId, live ? PROGRESS_INTERVAL_MS : null, runningSince, stored, policy);
  /** Nodes started and not ended, and write nodes whose record was flushed (kept: their downstream may yet start). */
  const inFlight = new Set<string>();
  let result: RunResult;
  try {
    result = await runPipeline(job.definition, {
      executionId,
      idempotencyId: opts.idempotencyId,
      inputs: job.inputs,
      testMode: job.testMode,
      registry: getNodeType,
      services: rt.host.nodeServices(db, job.orgId),
      signal: opts.signal,
      carried,
      inputOverrides: opts.inputOverrides,
      runTo: opts.runTo,
      // a queued run that keeps no payload once completed: nobody reads an output no connection takes
      outputsKept: !!opts.inline || payloadKeeping(policy, 'completed') === 'all',
      // a run without a live view: "running" records would only be built to be dropped
      onNodeStart: (id, inputs) => {
        inFlight.add(id);
        if (live) progress.note(nodeRecord(id, typeOf(id), { ...emptyRun('running'), inputs, started_ms: Date.now() }));
      },
      onNodeEnd: (id, run) => {
        progress.note(nodeRecord(id, typeOf(id), run), run);
        // a write to an outside system is recorded before anything else happens; when nothing else is left to run, the
        // result's write, next, records it as soon (a crash before either loses the same)
        const write = run.status === 'completed' && graph.nodes.get(id)?.type?.side_effect === 'write';
        if (!write || (inFlight.size === 1 && inFlight.has(id) && !graph.outgoing.get(id)?.length)) inFlight.delete(id);
        else return progress.flush();
      },
    });
  } finally {
    await progress.close();
  }
  // records a progress write stored as they end are not sent again (a node's inputs and outputs are most of the bytes),
  // unless the end keeps other payloads of them than progress did: all (a failed run under `errors`), or none of the
  // outputs a completed write node kept mid-run (the only payload progress keeps under `errors` and `metadata`)
  const ending = payloadKeeping(policy, result.status);
  // a run whose records end in its executions row (keepsNodeRows) sends them all: its rows are deleted
  const rewrite = progress.keeping !== ending || !keepsNodeRows(policy, result.status);
  const changes = (id: string, run: NodeRun) =>
    rewrite && (ending === 'all' || !keepsNodeRows(policy, result.status) || (run.status === 'completed' && writesOutside(typeOf(id))));
  const records = Object.entries(result.nodes)
    .filter(([id, run]) => changes(id, run) || !progress.holds(id, run))
    .map(([id, run]) => nodeRecord(id, typeOf(id), run));
  const heldBytes = progress.heldBytes(new Set(records.map((r) => r.node_id)));
  const successors = opts.completion?.successors;
  let taken: string[];
  try {
    taken = await saveResult(db, executionId, records, result, job.startedAt, rewrite ? undefined : progress.slots, {
      policy,
      inputs: job.inputs,
      heldBytes,
      completion: opts.completion?.statement,
      claimedBy: opts.completion?.claimedBy,
      takeFor: successors?.takeFor,
      tell: successors?.tell,
    });
    opts.completion?.done();
  } catch (e) {
    // the result could not be stored whole: the run still ends (failed, its slot freed) rather than stay running
    logger.error('execution result not stored', { executionId, error: errorForLog(e) });
    const error = {
      node_id: null,
      code: 'RESULT_NOT_STORED',
      message: 'The run finished but its result could not be stored; it is marked failed. Run it again.',
    };
    await failExecution(db, executionId, error, opts.completion?.claimedBy);
    return { ...result, status: 'failed', error };
  }
  if (taken.length) successors!.taken(taken);
  return result;
}
