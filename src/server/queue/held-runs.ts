import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';

/** Runs whose end this process wrote that it remembers (most recent): the next message of a connection need not wait for them. */
const REMEMBERED_ENDS = 4096;
/** The first and the longest wait between two reads of the state of predecessors that run elsewhere. */
const POLL_FIRST_MS = 5;
const POLL_MOST_MS = 250;

/** A run that starts after another (executions.after_id). */
export interface HeldRun {
  id: string;
  afterId: string;
  /** Whose runs these are (an MLLP connection), to count them (`heldFor`). */
  key?: string;
}

/**
 * Runs this process holds until the run before them ended: an MLLP connection's messages under ack_mode `stored`, each
 * admitted claimed by this process (executions.claimed_by, queue/claims.ts) with no queue job while the run of the
 * message before it is queued or running (MessageStore). A held run is handed to `release` once its predecessor ended,
 * in any state (or is gone): `release` runs it here in the slot the predecessor freed, or queues it.
 *
 * A predecessor this process runs tells its end as it is written (`finished`); one queued or running elsewhere is read
 * from the database, at most every POLL_MOST_MS (sooner after a read that found one ended). A held run is claimed, so
 * the sweeper leaves it alone and, should this process die, the process that takes its claims over holds it in turn
 * (claims.ts `handOver`): the order outlives the process.
 */
export class HeldRuns {
  /**
   * The held runs of each predecessor: a connection's runs make a chain, one each; the first runs of a sender's new
   * connections all follow its last run (several connections opened at once).
   */
  private readonly next = new Map<string, string[]>();
  /** The predecessor of each held run. */
  private readonly held = new Map<string, string>();
  /** Runs this process is running now. */
  private readonly running = new Set<string>();
  /** Runs whose end this process wrote, oldest first. */
  private readonly ended = new Set<string>();
  /** The key of each held run that has one, and how many runs each key has held. */
  private readonly keyOf = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private wait = POLL_FIRST_MS;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly release: (executionIds: string[]) => void,
    private readonly report: (e: unknown) => void,
  ) {}

  /** Whether a run admitted now after `predecessor` must be held: unless its end was written here. */
  mustWait(predecessor: string): boolean {
    return !this.ended.has(predecessor);
  }

  /** Runs held from now on, each until its predecessor ended (one that ended here already is released at once). */
  hold(runs: HeldRun[]): void {
    if (runs.length === 0) return;
    const ready: string[] = [];
    for (const { id, afterId, key } of runs) {
      if (this.ended.has(afterId)) ready.push(id);
      else {
        this.held.set(id, afterId);
        const after = this.next.get(afterId);
        if (after) after.push(id);
        else this.next.set(afterId, [id]);
        if (key !== undefined) {
          this.keyOf.set(id, key);
          this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        }
      }
    }
    if (ready.length) this.release(ready);
    this.wait = POLL_FIRST_MS;
    this.readSoon();
  }

  /** How many runs of `key` are held here now. */
  heldFor(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** A run starts in this process. */
  started(executionId: string): void {
    this.running.add(executionId);
  }

  /**
   * A run of this process is over: its end written (`ended`), which releases the run held after it, or not (it threw
   * and was handed to the queue, or failed to be retried): its successor then waits for it wherever it runs next.
   */
  finished(executionId: string, ended: boolean): void {
    this.running.delete(executionId);
    if (!ended) return this.readSoon();
    this.ended.add(executionId);
    if (this.ended.size > REMEMBERED_ENDS) this.ended.delete(this.ended.values().next().value!);
    this.releaseAfter([executionId]);
  }

  /** Stops reading predecessors' state; the runs still held stay claimed by this process, for another to take over. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private releaseAfter(predecessors: string[]): void {
    const ready: string[] = [];
    for (const p of predecessors) {
      const ids = this.next.get(p);
      if (ids === undefined) continue;
      this.next.delete(p);
      for (const id of ids) {
        this.held.delete(id);
        ready.push(id);
        const key = this.keyOf.get(id);
        if (key === undefined) continue;
        this.keyOf.delete(id);
        const left = this.counts.get(key)! - 1;
        if (left) this.counts.set(key, left);
        else this.counts.delete(key);
      }
    }
    if (ready.length) this.release(ready);
  }

  /** Predecessors neither running nor held here: queued, or running in another process. */
  private elsewhere(): string[] {
    return [...this.next.keys()].filter((p) => !this.running.has(p) && !this.held.has(p));
  }

  private readSoon(): void {
    if (this.stopped || this.timer || this.reading || this.elsewhere().length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read();
    }, this.wait).unref();
  }

  /** Releases the runs whose predecessor elsewhere ended (or is gone); reads again while some wait, ever less often. */
  private async read(): Promise<void> {
    const predecessors = this.elsewhere();
    if (this.stopped || predecessors.length === 0) return;
    this.reading = true;
    try {
      const open = rowsOf<{ id: string }>(
        await this.db.execute(sql`select id from executions where id = any(${`{${predecessors.join(',')}}`}::uuid[]) and status in ('queued', 'running')`),
      );
      const still = new Set(open.map((r) => r.id));
      const over = predecessors.filter((p) => !still.has(p));
      this.wait = over.length ? POLL_FIRST_MS : Math.min(this.wait * 2, POLL_MOST_MS);
      this.releaseAfter(over);
    } catch (e) {
      this.wait = POLL_MOST_MS;
      this.report(e);
    } finally {
      this.reading = false;
    }
    this.readSoon();
  }
}
