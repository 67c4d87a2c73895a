import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import type { HeldRun } from './held-runs';

/**
 * Runs a process claimed for itself (executions.claimed_by: the MLLP feed's, admitted with no queue job) and the
 * heartbeat that vouches for them.
 *
 * Each process instance that works the execution queue has a row in queue_processes, refreshed once per heartbeat
 * interval (`beat`: one statement, which also says whether any claim is held by an instance whose heartbeat is stale).
 * An instance is dead once its row is older than two intervals, or gone. Its claims are then handed to the queue
 * (`handOver`): in one transaction, each run still queued or running is un-claimed and given a pg-boss job in the state
 * a redelivered job is in (claimed once before: its first fetch counts a retry), so the ordinary redelivery path resumes
 * it — it keeps what the run had finished, as after pg-boss's own supervisor handed on the job of a dead worker.
 *
 * A run's end is conditioned on its claim (saveResult's `claimedBy`): an instance that stalled long enough to be
 * thought dead finds its claim gone and writes nothing, where the new owner runs it.
 */
export interface ClaimsOptions {
  /** This process instance (new per start). */
  instanceId: string;
  /** The queue's heartbeat interval. */
  heartbeatSeconds: number;
  /** Inserts the recovered runs' jobs in `tx` (ids given), as redelivered ones. */
  enqueue(tx: Db, jobs: { id: string; executionId: string }[]): Promise<void>;
}

const OPEN = sql`e.status in ('queued', 'running')`;

/** An instance whose heartbeat is older than two intervals is taken for dead (one late beat is forgiven). */
const staleBefore = (o: ClaimsOptions) => sql`now() - make_interval(secs => ${o.heartbeatSeconds * 2})`;

/** Whose claims `handOver` takes: dead instances' (stale), every other instance's (the one process of PGlite, at start), or runs of this one. */
export type Whose = { stale: true } | { others: true } | { own: string[] };

function condition(o: ClaimsOptions, whose: Whose): SQL {
  const me = sql`${o.instanceId}::uuid`;
  if ('own' in whose) return sql`e.claimed_by = ${me} and e.id = any(${`{${whose.own.join(',')}}`}::uuid[])`;
  if ('others' in whose) return sql`e.claimed_by <> ${me}`;
  return sql`e.claimed_by <> ${me} and not exists (select 1 from queue_processes p where p.id = e.claimed_by and p.heartbeat_at > ${staleBefore(o)})`;
}

/**
 * Refreshes this instance's heartbeat (registering it on the first beat), and deletes the rows of dead instances that
 * hold nothing open; resolves whether a dead instance holds claims.
 */
export async function beat(db: Db, o: ClaimsOptions): Promise<boolean> {
  const result = await db.execute(sql`with h as (insert into queue_processes (id) values (${o.instanceId}::uuid)
      on conflict (id) do update set heartbeat_at = now()),
    d as (delete from queue_processes p where p.id <> ${o.instanceId}::uuid and p.heartbeat_at < ${staleBefore(o)}
      and not exists (select 1 from executions e where e.claimed_by = p.id and ${OPEN}))
    select exists (select 1 from executions e where e.claimed_by is not null and ${OPEN} and ${condition(o, { stale: true })}) as stale`);
  return rowsOf<{ stale: boolean }>(result)[0]?.stale === true;
}

/** What `handOver` did: the runs given a queue job, and those it claimed for this process to hold (held-runs.ts). */
export interface HandedOver {
  queued: string[];
  held: HeldRun[];
}

/**
 * Hands the open runs `whose` claims to the queue, in one transaction: un-claimed, each with a job a fetch takes as a
 * redelivery — except a run whose predecessor (executions.after_id) is still queued or running, which this process
 * claims instead, to hold until that one ended (an MLLP connection's order outlives the process that received it).
 * Rows of dead instances that hold nothing open are deleted.
 */
export async function handOver(db: Db, o: ClaimsOptions, whose: Whose): Promise<HandedOver> {
  if ('own' in whose && whose.own.length === 0) return { queued: [], held: [] };
  return db.transaction(async (tx) => {
    // two processes recovering at once: the second finds the rows un-claimed when their lock is released, and skips them
    const waits = sql`e.after_id is not null and exists (select 1 from executions p where p.id = e.after_id and p.status in ('queued', 'running'))`;
    const rows = rowsOf<{ id: string; after_id: string | null; claimed_by: string | null }>(
      await tx.execute(sql`update executions e set claimed_by = case when ${waits} then ${o.instanceId}::uuid end
        where e.claimed_by is not null and ${OPEN} and ${condition(o, whose)} returning e.id, e.after_id, e.claimed_by`),
    );
    const held = rows.filter((r) => r.claimed_by !== null).map((r) => ({ id: r.id, afterId: r.after_id! }));
    const jobs = rows.filter((r) => r.claimed_by === null).map((r) => ({ id: randomUUID(), executionId: r.id }));
    if (jobs.length) await o.enqueue(tx, jobs);
    if (!('own' in whose)) {
      const gone = 'others' in whose ? sql`` : sql`and p.heartbeat_at < ${staleBefore(o)}`;
      await tx.execute(sql`delete from queue_processes p where p.id <> ${o.instanceId}::uuid ${gone}
        and not exists (select 1 from executions e where e.claimed_by = p.id and ${OPEN})`);
    }
    return { queued: jobs.map((j) => j.executionId), held };
  });
}

/** This instance's row, deleted when it stops (after handing its open runs on). */
export async function leave(db: Db, o: ClaimsOptions): Promise<void> {
  await db.execute(sql`delete from queue_processes where id = ${o.instanceId}::uuid`);
}
