import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { pruneCounts, pruneRuns } from '@/server/db/schema';
import { errorForLog, logger } from '@/server/logger';
import { pruneAudit } from '@/server/services/audit/prune';
import { countBoundary, deleteRunsBefore, prunePayloadsBefore, type Removed } from './prune-batches';
import { retentionTargets, type RetentionTarget } from './targets';

const DAY_MS = 86_400_000;

export interface PruneOptions {
  /** The clock ages are judged by (default: now). The bench advances a simulated one. */
  now?: Date;
  /** Runs per statement: ~5 node records each, so ≤ ~500 rows a statement (default 100). */
  batchSize?: number;
  /**
   * After each statement the pruner rests this many times as long as the statement took (default 1: it holds the
   * database at most half the time, and a feed's writes queue behind one short statement at most).
   */
  restRatio?: number;
  /** Stops after this long (status `partial`); the next run goes on where it stopped (default 4 minutes). */
  budgetMs?: number;
  /** The pg-boss job the run is, when it came from the queue. */
  jobId?: string | null;
  /** Aborted when the queue took the job back (its heartbeat found the claim gone): the run stops after its statement. */
  signal?: AbortSignal;
  /**
   * After a run that removed rows, VACUUM the two tables so their space is used again: `true` always (PGlite has no
   * autovacuum), `'if-off'` only when Postgres's autovacuum is off for the server or either table (whose dead rows
   * would otherwise stay until someone vacuums by hand, and the database grow without end).
   */
  vacuum?: boolean | 'if-off';
  /** How long the pruner's own records are kept (default 90 days). */
  historyDays?: number;
}

export interface PruneResult {
  id: string;
  status: 'completed' | 'partial' | 'failed';
  executions_deleted: number;
  payloads_pruned: number;
  bytes_freed: number;
  duration_ms: number;
}

interface Tally {
  orgId: string;
  pipelineId: string;
  executions: number;
  payloads: number;
  bytes: number;
}

/** Where a pipeline's runs end: the later of its age limit (execution_days) and its count limit (max_executions). */
async function deletionCutoff(db: Db, t: RetentionTarget, now: Date): Promise<Date | null> {
  const byAge = t.settings.execution_days === null ? null : new Date(now.getTime() - t.settings.execution_days * DAY_MS);
  const byCount = t.settings.max_executions === null ? null : await countBoundary(db, t.pipelineId, t.settings.max_executions);
  if (!byAge) return byCount;
  if (!byCount) return byAge;
  return byAge > byCount ? byAge : byCount;
}

/** Whether Postgres's autovacuum is off for the server, or turned off on the executions tables (reloptions). */
export async function autovacuumOff(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ off: boolean }>(
    await db.execute(sql`select current_setting('autovacuum') = 'off' or exists (
      select 1 from pg_class where relname in ('executions', 'execution_nodes') and relnamespace = 'public'::regnamespace
        and 'autovacuum_enabled=false' = any(coalesce(reloptions, '{}'))) as off`),
  );
  return row?.off === true;
}

/**
 * One pass of retention over every pipeline with runs (see docs/decisions.md, "Retention and the pruner"): runs past
 * their pipeline's execution_days or beyond its max_executions are deleted with their node records; runs past
 * payload_days keep their row, status, timings and per-node status but lose their payloads. In statements of
 * `batchSize` runs, each its own short transaction that skips rows others hold, resting between them; runs in use
 * (queued, running, the source of a running retry, under a live step session) are never touched. Records what it
 * did in prune_runs / prune_counts. Callers make sure one runs at a time (the prune queue, src/server/queue/pruner.ts).
 */
export async function prune(db: Db, opts: PruneOptions = {}): Promise<PruneResult> {
  const now = opts.now ?? new Date();
  const batch = opts.batchSize ?? 100;
  const rest = opts.restRatio ?? 1;
  const started = Date.now();
  const deadline = started + (opts.budgetMs ?? 4 * 60_000);
  // one runs at a time, so a run still marked running is one whose process died
  await db
    .update(pruneRuns)
    .set({ status: 'failed', finishedAt: new Date(), error: 'The process running it stopped before it finished.' })
    .where(eq(pruneRuns.status, 'running'));
  const [run] = await db
    .insert(pruneRuns)
    .values({ jobId: opts.jobId ?? null, runner: `${os.hostname()}:${process.pid}`, asOf: now, status: 'running' })
    .returning({ id: pruneRuns.id });
  const tallies = new Map<string, Tally>();
  let stopped = false;
  const outOfTime = () => stopped || Date.now() >= deadline || opts.signal?.aborted === true;

  /** Runs `step` until it removes less than a batch or time is up; true when it finished. */
  async function drain(t: RetentionTarget, kind: 'executions' | 'payloads', step: () => Promise<Removed>): Promise<void> {
    const tally = tallies.get(t.pipelineId) ?? { orgId: t.orgId, pipelineId: t.pipelineId, executions: 0, payloads: 0, bytes: 0 };
    tallies.set(t.pipelineId, tally);
    for (;;) {
      if (outOfTime()) return void (stopped = true);
      const t0 = Date.now();
      const r = await step();
      tally[kind] += r.runs;
      tally.bytes += r.bytes;
      if (r.runs < batch) return;
      if (rest > 0) await sleep(Math.max(1, (Date.now() - t0) * rest));
    }
  }

  let status: PruneResult['status'] = 'completed';
  let error: string | null = null;
  try {
    for (const t of await retentionTargets(db)) {
      const cutoff = await deletionCutoff(db, t, now);
      if (cutoff) await drain(t, 'executions', () => deleteRunsBefore(db, t.pipelineId, cutoff, batch));
      const payloadDays = t.settings.payload_days;
      if (payloadDays !== null) {
        const before = new Date(now.getTime() - payloadDays * DAY_MS);
        await drain(t, 'payloads', () => prunePayloadsBefore(db, t.pipelineId, before, batch));
      }
      if (stopped) break;
    }
    if (stopped) status = 'partial';
  } catch (e) {
    status = 'failed';
    error = e instanceof Error ? e.message : String(e);
    logger.error('pruner: a pass failed (what it removed before stays removed)', { error: errorForLog(e) });
  }
  const counted = [...tallies.values()].filter((t) => t.executions || t.payloads);
  const totals = counted.reduce((s, t) => ({ e: s.e + t.executions, p: s.p + t.payloads, b: s.b + t.bytes }), { e: 0, p: 0, b: 0 });
  if (counted.length) {
    await db.insert(pruneCounts).values(
      counted.map((t) => ({
        runId: run!.id,
        orgId: t.orgId,
        pipelineId: t.pipelineId,
        executionsDeleted: t.executions,
        payloadsPruned: t.payloads,
        bytesFreed: t.bytes,
      })),
    );
  }
  await db
    .update(pruneRuns)
    .set({ status, finishedAt: new Date(), executionsDeleted: totals.e, payloadsPruned: totals.p, bytesFreed: totals.b, error })
    .where(eq(pruneRuns.id, run!.id));
  // the pruner's own history is kept for a while, then pruned like the rest
  await db.delete(pruneRuns).where(lt(pruneRuns.startedAt, new Date(Date.now() - (opts.historyDays ?? 90) * DAY_MS)));
  await pruneAudit(db, now);
  if (counted.length && (opts.vacuum === true || (opts.vacuum === 'if-off' && (await autovacuumOff(db))))) {
    await db.execute(sql`vacuum executions, execution_nodes`);
  }
  const result = { id: run!.id, status, executions_deleted: totals.e, payloads_pruned: totals.p, bytes_freed: totals.b, duration_ms: Date.now() - started };
  if (counted.length || status !== 'completed') logger.info('pruner', result);
  return result;
}
