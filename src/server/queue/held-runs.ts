import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '@/server/db/client';
import { rowsOf } from '@/server/db/rows';
import { takeAdmitted } from './admitted';

/**
 * Runs whose end this process wrote or was told of that it remembers (most recent): the next message of a connection
 * need not wait for them.
 */
const REMEMBERED_ENDS = 4096;
/**
 * The first and the longest wait between two reads of the state of predecessors that run elsewhere. Reads every 5 ms
 * while a feed flowed cost the receiving process ~3 ms of CPU and Postgres ~1.3 ms a message, and the split layout's
 * feed a quarter of its messages a second (bench/README, sixth session): its runs are taken by the ends of the runs
 * before them, so reads settle only what they miss and the counts of runs open.
 */
const POLL_FIRST_MS = 40;
const POLL_MOST_MS = 250;
/** The longest wait while the runs held here are being taken by the process that runs their predecessors. */
const POLL_TAKEN_MS = 50;
/**
 * The wait between two reads while the ends that take runs held here say so (`told`): the reads are then a safety net,
 * for what no end tells — a run ended with no run after it (the last of a connection, still counted by `openFor` until
 * read), one ended outside a run (cancelled), runs taken over from a stopped process, a notification lost while the
 * listening connection was down.
 */
const POLL_TOLD_MS = 500;

/** The NOTIFY channel on which the ends of MLLP runs, and the runs those ends took, are told to every process (`told`). */
export const FEED_ENDS_CHANNEL = 'clinflow_feed_ends';

/** A set of the REMEMBERED_ENDS ids added last. */
const recent = () => new LRUCache<string, true>({ max: REMEMBERED_ENDS });

/** A run that starts after another (executions.after_id). */
export interface HeldRun {
  id: string;
  afterId: string;
  /** Whose runs these are (an MLLP connection), to count them until they ended (`openFor`). */
  key?: string;
}

/**
 * Runs this process holds until the run before them ended: an MLLP connection's messages under ack_mode `stored`, each
 * admitted claimed by this process (executions.claimed_by, queue/claims.ts) with no queue job while the run of the
 * message before it is queued or running (MessageStore). A held run is handed to `release` once its predecessor ended,
 * in any state (or is gone): `release` runs it here in the slot the predecessor freed, or queues it.
 *
 * A predecessor this process runs tells its end as it is written (`finished`): `release` may run its successors here.
 * On a database shared by several processes, the end of a predecessor another process runs takes the runs held after it
 * (saveResult's `takeFor`) and that process runs them next, and so on along the chain: a connection's runs advance in
 * the process that runs them, with no statement of this one. What this one holds of a chain whose head runs elsewhere
 * is told by those ends (`told`: on Postgres, a NOTIFY of the statement that took them) and read from the database, at
 * most every POLL_MOST_MS (sooner after a read that found something changed; every POLL_TOLD_MS, a safety net, while
 * the ends tell): a run taken is forgotten, and one whose predecessor ended without taking it (it was admitted as that
 * end was written, or the predecessor ended outside a run, cancelled) is released — told, at once (no end can take it
 * any more); read, to the queue, never here, since another end may be taking it at that moment (the queue's hand-over is
 * conditioned on the claim, as the take is: one of them gets it).
 *
 * A held run is claimed, so the sweeper leaves it alone and, should this process die, the process that takes its claims
 * over holds it in turn (claims.ts `handOver`): the order outlives the process.
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
  /** Runs whose end this process wrote, or was told of (`told`), oldest first. */
  private readonly ended = recent();
  /** Runs another process was told to have taken (`told`), should their hold come after: they run there. */
  private readonly takenAway = recent();
  /** Runs the end of a run here took from another process (`taken`), until they start (`tookElsewhere`). */
  private readonly takenHere = recent();
  /**
   * The key of each run counted (`openFor`) until it ended: held here, or `watched` — admitted here to run at once, or
   * released, or taken by another process — until it is read ended or ends here.
   */
  private readonly keyOf = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly watched = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private wait = POLL_FIRST_MS;
  private stopped = false;
  /** Whether the ends that take runs held here tell this process so (`told`): reads are then rare. */
  private hearing = false;

  constructor(
    private readonly db: Db,
    /** This process instance: the claim of the runs it holds (claims.ts). */
    private readonly instanceId: string,
    /** Runs whose predecessor ended; `here`: it ended in this process, which may run them (else they go to the queue). */
    private readonly release: (executionIds: string[], here: boolean) => void,
    private readonly report: (e: unknown) => void,
  ) {}

  /** Whether a run admitted now after `predecessor` must be held: unless its end was written here. */
  mustWait(predecessor: string): boolean {
    return !this.ended.has(predecessor);
  }

  /**
   * Runs held from now on, each until its predecessor ended (one that ended here already is released at once): runs this
   * process admitted, took over from a dead one, or took at the end of a run of its own (`taken`).
   */
  hold(runs: HeldRun[]): void {
    if (runs.length === 0) return;
    const ready: string[] = [];
    for (const { id, afterId, key } of runs) {
      if (this.takenAway.has(id)) {
        if (key !== undefined) this.watch([{ id, key }]);
      } else if (this.ended.has(afterId)) ready.push(id);
      else {
        this.held.set(id, afterId);
        const after = this.next.get(afterId);
        if (after) after.push(id);
        else this.next.set(afterId, [id]);
        if (key !== undefined) this.count(id, key);
      }
    }
    if (ready.length) this.release(ready, true);
    this.wait = this.firstWait();
    this.readSoon();
  }

  /** Runs of `key` admitted to run now (not held): counted (`openFor`) until they ended. */
  watch(runs: { id: string; key: string }[]): void {
    if (runs.length === 0) return;
    for (const { id, key } of runs) {
      if (this.ended.has(id)) continue; // told of its end before its admission's caller came here
      this.count(id, key);
      this.watched.add(id);
    }
    this.readSoon();
  }

  /**
   * From now on the ends that take runs held here tell this process so (`told`, Postgres LISTEN): reads become a safety
   * net. Also when that listening connection was opened again: what was told while it was down is read at once.
   */
  listening(): void {
    this.hearing = true;
    this.wait = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.readSoon();
  }

  /**
   * What the ends of MLLP runs told every process (ends-batch.ts `takeSuccessors`): `ended` or `ended:taken` entries —
   * a run's end, and the run held after it that the end took to run next in its process; or `*`, too many to tell: read.
   * Of those known here (counted or held here, or held after such a run), each taken run is no longer held here (it stays
   * counted for its key until it ended); each ended run is over, and a run still held after it — admitted as its end
   * was written, so not taken — is released: nothing else can take it once its predecessor's end is committed.
   */
  told(payload: string): void {
    if (this.stopped) return;
    if (payload === '*') return this.listening();
    const ended: string[] = [];
    for (const entry of payload.split(',')) {
      const colon = entry.indexOf(':');
      const id = colon < 0 ? entry : entry.slice(0, colon);
      const taken = colon < 0 ? undefined : entry.slice(colon + 1);
      const known = this.keyOf.has(id) || this.held.has(id) || this.next.has(id);
      if (taken !== undefined && !this.forget(taken) && known) this.takenAway.set(taken, true);
      if (!known) continue;
      this.forget(id); // held here still, if the notification of its own take was missed
      this.uncount(id);
      this.ended.set(id, true);
      ended.push(id);
    }
    if (ended.length) this.releaseAfter(ended, true);
  }

  /**
   * A run held here that another process took: it runs there (it stays counted for its key, watched until it ended).
   * Whether it was held here.
   */
  private forget(id: string): boolean {
    if (!this.held.has(id)) return false;
    this.drop(id);
    takeAdmitted(id); // the row its admission kept for a run here
    return true;
  }

  private firstWait(): number {
    return this.hearing ? POLL_TOLD_MS : POLL_FIRST_MS;
  }

  private count(id: string, key: string): void {
    this.keyOf.set(id, key);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** A run counted for its key is over (ended, or gone). */
  private uncount(id: string): void {
    this.watched.delete(id);
    const key = this.keyOf.get(id);
    if (key === undefined) return;
    this.keyOf.delete(id);
    const left = this.counts.get(key)! - 1;
    if (left) this.counts.set(key, left);
    else this.counts.delete(key);
  }

  /** Runs held by another process that the end of `afterId`, a run of this one, took: run next, in the slot it frees. */
  taken(afterId: string, executionIds: string[]): void {
    for (const id of executionIds) this.takenHere.set(id, true);
    this.hold(executionIds.map((id) => ({ id, afterId })));
  }

  /** Whether a run starting here was taken from another process (`taken`), whose counts its end concerns: asked once. */
  tookElsewhere(executionId: string): boolean {
    return this.takenHere.delete(executionId);
  }

  /** How many runs of `key` are open (held here, queued or running) as far as this process knows. */
  openFor(key: string): number {
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
    this.uncount(executionId);
    this.ended.set(executionId, true);
    this.releaseAfter([executionId], true);
  }

  /** Stops reading predecessors' state; the runs still held stay claimed by this process, for another to take over. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private releaseAfter(predecessors: string[], here: boolean): void {
    const ready: string[] = [];
    for (const p of predecessors) {
      const ids = this.next.get(p);
      if (ids === undefined) continue;
      this.next.delete(p);
      for (const id of ids) {
        this.drop(id);
        ready.push(id);
      }
    }
    if (ready.length) this.release(ready, here);
  }

  /**
   * A run no longer held here: released, or taken by another process (its successors held here then follow it there).
   * It stays counted for its key, watched until it ended.
   */
  private drop(id: string): void {
    const p = this.held.get(id)!;
    this.held.delete(id);
    const after = this.next.get(p);
    if (after?.includes(id)) {
      if (after.length === 1) this.next.delete(p);
      else after.splice(after.indexOf(id), 1);
    }
    if (this.keyOf.has(id)) this.watched.add(id);
  }

  /** The runs held here in chains whose first predecessor is not running here: queued, or running in another process. */
  private elsewhere(): string[] {
    const rooted = new Map<string, boolean>();
    const outside = (id: string): boolean => {
      let known = rooted.get(id);
      if (known === undefined) {
        const p = this.held.get(id)!;
        known = this.held.has(p) ? outside(p) : !this.running.has(p);
        rooted.set(id, known);
      }
      return known;
    };
    return [...this.held.keys()].filter(outside);
  }

  /** Watched runs not running here: queued, or running in another process. */
  private watchedElsewhere(): string[] {
    return [...this.watched].filter((id) => !this.running.has(id));
  }

  /** Whether any run is left to read: a held run's chain starts with a run not running here, or a watched run runs elsewhere. */
  private anyElsewhere(): boolean {
    for (const first of this.next.keys()) if (!this.held.has(first) && !this.running.has(first)) return true;
    for (const id of this.watched) if (!this.running.has(id)) return true;
    return false;
  }

  private readSoon(): void {
    if (this.stopped || this.timer || this.reading || !this.anyElsewhere()) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read();
    }, this.wait).unref();
  }

  /**
   * Reads the runs held in chains that start elsewhere, and the watched runs not running here: forgets the held ones
   * another process took (or that ended, or are gone), releases those whose predecessor ended, and stops counting the
   * watched ones that ended; reads again while any is left, ever less often while nothing changes.
   */
  private async read(): Promise<void> {
    const ids = this.elsewhere();
    const watched = this.watchedElsewhere();
    if (this.stopped || ids.length + watched.length === 0) return;
    this.reading = true;
    try {
      const rows = rowsOf<{ id: string; mine: boolean; open: boolean; waits: boolean }>(
        await this.db.execute(sql`select e.id, e.claimed_by = ${this.instanceId}::uuid and e.status = 'queued' as mine,
          e.status in ('queued', 'running') as open,
          exists (select 1 from executions p where p.id = e.after_id and p.status in ('queued', 'running')) as waits
          from executions e where e.id = any(${`{${[...ids, ...watched].join(',')}}`}::uuid[])`),
      );
      const state = new Map(rows.map((r) => [r.id, r]));
      const gone = ids.filter((id) => !state.get(id)?.mine);
      const ready = ids.filter((id) => state.get(id)?.mine && !state.get(id)!.waits);
      const over = watched.filter((id) => !state.get(id)?.open);
      for (const id of gone) this.forget(id);
      for (const id of ready) this.drop(id);
      for (const id of over) this.uncount(id);
      if (ready.length) this.release(ready, false);
      const changed = ready.length + over.length > 0;
      if (this.hearing) this.wait = POLL_TOLD_MS;
      else this.wait = changed ? POLL_FIRST_MS : Math.min(this.wait * 2, gone.length ? POLL_TAKEN_MS : POLL_MOST_MS);
    } catch (e) {
      this.wait = Math.max(POLL_MOST_MS, this.firstWait());
      this.report(e);
    } finally {
      this.reading = false;
    }
    this.readSoon();
  }
}
