import type { Job, PgBoss } from 'pg-boss';
import { reportQueueError } from './queue';

export interface DispatcherOptions {
  /** Jobs run at once in this process. */
  slots: number;
  /** How often an idle dispatcher looks for work it was not woken for (jobs retried after a delay). */
  idlePollSeconds: number;
  /** The queue's heartbeat: claims held here are refreshed twice within it. */
  heartbeatSeconds: number;
  /**
   * The least time between the starts of two fetches that a wake-up asks for. A wake-up after a quiet spell
   * fetches at once; under load the jobs queued meanwhile are claimed together by the next fetch.
   */
  fetchGapMs: number;
  /** How long a finished job may wait for others to be completed with (its claim is refreshed meanwhile). */
  completeDelayMs: number;
}

/**
 * Runs a job; `completedInline` says the run completed the job itself, in its own last write (then it is not completed
 * again). `local`: a run this process admitted claimed by itself (`adopt`), with no queue job: its end is its claim's.
 */
type Run<T> = (job: Job<T>, completedInline: () => void, local: boolean) => Promise<unknown>;
type Claim = { id: string; retryCount: number; local: boolean };

/**
 * Works one pg-boss queue in this process with `slots` jobs at a time, a slow job never holding up the others.
 *
 * Jobs are claimed and settled in batches: at most one fetch is on its way, asking for as many jobs as there are
 * free slots, and at most one completion, carrying every job that finished while the previous one was on its way.
 * Under load a fetch and a completion each serve several jobs (one statement and one commit for all of them)
 * where pg-boss's own workers fetch and complete one job at a time.
 *
 * A fetch is made when a slot frees (the queue may hold more), when a full fetch comes back, on `wake()` (a job
 * was queued), and every `idlePollSeconds`, but not within `fetchGapMs` of the last one; a finished job waits up
 * to `completeDelayMs` for others to be completed with. Under load that makes the batches several jobs each; a job
 * queued after a quiet spell is still fetched at once. A job this process queues itself it takes on while it has a
 * slot to spare (`reserve`/`settle`), and the others are not woken for it. A job that throws is failed at once
 * (pg-boss retries it per the queue's policy). Claims held here — running, or finished and not yet completed — are
 * refreshed on the queue's heartbeat, so the supervisor hands another process the jobs of a process that died, not
 * of a live one.
 */
export class Dispatcher<T extends object> {
  private readonly running = new Map<string, Claim>();
  private finished: Claim[] = [];
  /** The fetch on its way, if any. */
  private fetching: Promise<void> | undefined;
  private fetchAgain = false;
  /** Jobs this process took on (`reserve`) whose admission has not settled yet. */
  private reserved = 0;
  /** Jobs it took on that are committed and that no fetch has started for since: a fetch starting now can claim them. */
  private committed = 0;
  /** Tells the other processes working the queue that jobs may be waiting (Postgres: NOTIFY). */
  private announce: () => Promise<unknown> = async () => {};
  /** Hands runs claimed here (adopted) that did not end to the queue (claims.ts): a run that threw, or one still running at stop. */
  private release: (executionIds: string[]) => Promise<unknown> = async () => {};
  private lastFetchAt = Number.NEGATIVE_INFINITY;
  /** Whether the last fetch found the queue empty: a job taken on then is fetched without `fetchGapMs`. */
  private lastFetchEmpty = true;
  /** A wake-up found every slot taken: the next slot to free fetches, even one an adopted job held. */
  private owed = false;
  /** A fetch held back by `fetchGapMs`. */
  private paced: NodeJS.Timeout | undefined;
  /** Finished jobs waiting out `completeDelayMs`. */
  private completeTimer: NodeJS.Timeout | undefined;
  private completing: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly settled = new Set<Promise<void>>();
  /**
   * Told of each job as it starts, and as it ends: `ended` true once its run returned (its end written), false when it
   * threw. Called as its slot frees, before a fetch may take the slot: what `ended` adopts runs in it.
   */
  watch: { begun(job: Job<T>): void; ended(job: Job<T>, ended: boolean): void } | undefined;

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly run: Run<T>,
    private readonly opts: DispatcherOptions,
  ) {}

  start(announce?: () => Promise<unknown>, release?: (executionIds: string[]) => Promise<unknown>): void {
    if (announce) this.announce = announce;
    if (release) this.release = release;
    this.timers.push(setInterval(() => this.wake(), this.opts.idlePollSeconds * 1000).unref());
    this.timers.push(setInterval(() => void this.refreshClaims(), (this.opts.heartbeatSeconds * 1000) / 2).unref());
    this.wake();
  }

  /**
   * For a job this process is about to queue: takes it on if a slot is free for it and one more stays free,
   * counting the jobs taken on and not yet fetched — then nobody else need be woken for it, and `settle` says
   * whether it was queued. False when stopped or the slots are spoken for. So a fetch for jobs taken on asks for
   * more than them, and comes back full only when other jobs wait in the queue too, which may have been claimed
   * instead: the other processes are then woken (`announce`), as they are for jobs committed here that find no
   * slot free, so none waits for a slot of this process while another has one.
   */
  reserve(): boolean {
    if (this.stopped || this.running.size + this.reserved + this.committed + 1 >= this.opts.slots) return false;
    this.reserved++;
    return true;
  }

  /** A job taken on by `reserve` was committed to the queue (fetched here, as a wake-up does), or not after all. */
  settle(queued: boolean): void {
    this.reserved--;
    if (!queued) return;
    this.committed++;
    this.wake(this.lastFetchEmpty);
  }

  /**
   * For jobs this process queues already claimed, to run them itself (`adopt`): takes on up to `n` free slots,
   * resolves how many (none when stopped or full). Each is given back by `adopt`, used or not.
   */
  reserveMany(n: number): number {
    if (this.stopped) return 0;
    const k = Math.max(0, Math.min(n, this.opts.slots - this.running.size - this.reserved - this.committed));
    this.reserved += k;
    return k;
  }

  /**
   * Runs executions this process admitted claimed by itself, with no queue job (claims.ts), in the slots `reserveMany`
   * took (`reserved` of them; those left over are freed): no fetch for them. Their end is their claim's (nothing to
   * complete or heartbeat here); one that throws, or is still running at stop, is handed to the queue (`release`),
   * as a fetched job is failed to be retried.
   */
  adopt(jobs: Pick<Job<T>, 'id' | 'data'>[], reserved: number): void {
    this.reserved -= reserved;
    for (const job of jobs) this.begin({ ...job, retryCount: 0 } as Job<T>, true);
  }

  /**
   * A job may be waiting: fetch for the free slots, now or as soon as the fetch on its way is back (`now`: even
   * within `fetchGapMs` of the last one).
   */
  wake(now = false): void {
    if (this.stopped) return this.handOver();
    if (this.fetching) {
      this.fetchAgain = true;
      return;
    }
    const free = this.opts.slots - this.running.size;
    if (free <= 0) {
      this.owed = true;
      return this.handOver();
    }
    if (now && this.paced) {
      clearTimeout(this.paced);
      this.paced = undefined;
    }
    if (this.paced) return;
    const wait = now ? 0 : this.lastFetchAt + this.opts.fetchGapMs - performance.now();
    if (wait > 0) {
      this.paced = setTimeout(() => {
        this.paced = undefined;
        this.wake();
      }, wait);
      return;
    }
    this.fetchAgain = false;
    this.owed = false;
    this.lastFetchAt = performance.now();
    const covering = this.committed; // this fetch asks for every free slot: at least as many
    this.committed = 0;
    this.fetching = this.boss
      .fetch<T>(this.queue, { batchSize: free })
      .then(
        (jobs) => {
          for (const job of jobs) this.begin(job);
          this.lastFetchEmpty = jobs.length === 0;
          return jobs.length === free;
        },
        (e: unknown) => (this.report('fetch', e), false),
      )
      .then((full) => {
        this.fetching = undefined;
        if (full && covering > 0) this.announce().catch((e: unknown) => this.report('wake-up', e));
        if (full || this.fetchAgain) this.wake();
      });
  }

  /** Jobs taken on and committed that this process has no slot for (or is stopping): the others are woken for them. */
  private handOver(): void {
    if (this.committed === 0) return;
    this.committed = 0;
    this.announce().catch((e: unknown) => this.report('wake-up', e));
  }

  /**
   * Stops taking jobs, waits up to `timeoutMs` for the running ones, completes what finished, and fails what is
   * still running (pg-boss retries it elsewhere, as it does for its own workers at shutdown).
   */
  stop(timeoutMs: number): Promise<void> {
    return (this.stopped ??= this.drain(timeoutMs));
  }

  private async drain(timeoutMs: number): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.paced);
    clearTimeout(this.completeTimer);
    await this.fetching; // the jobs it brings run within the grace too
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.settled]), timeout]);
    clearTimeout(timer);
    await this.completing;
    if (this.finished.length) await this.complete(); // once: if the database is away, their claims lapse and a redelivery finds them finished
    const left = [...this.running.values()].filter((c) => !c.local);
    const claimed = [...this.running.values()].filter((c) => c.local).map((c) => c.id);
    if (claimed.length) await this.release(claimed).catch((e: unknown) => this.report('hand-over', e));
    if (left.length) await this.boss.fail(this.queue, left, { message: 'the worker stopped while the job ran' }).catch((e: unknown) => this.report('fail', e));
  }

  /** Runs a claimed job; when it ends, a fetch looks for more — after an adopted one, only if the queue may hold some. */
  private begin(job: Job<T>, adopted = false): void {
    const claim: Claim = { id: job.id, retryCount: job.retryCount, local: adopted };
    this.running.set(job.id, claim);
    this.watch?.begun(job);
    let inline = false;
    const done: Promise<void> = this.run(job, () => (inline = true), adopted)
      .then(
        () => {
          this.running.delete(job.id);
          this.watch?.ended(job, true);
          if (inline || adopted) return;
          this.finished.push(claim);
          this.completeSoon();
        },
        (e: unknown) => {
          this.running.delete(job.id);
          this.watch?.ended(job, false);
          if (adopted)
            return this.release([job.id]).then(
              () => undefined,
              (err: unknown) => this.report('hand-over', err),
            );
          return this.boss.fail(this.queue, claim, { message: e instanceof Error ? e.message : String(e) }).then(
            () => undefined,
            (err: unknown) => this.report('fail', err),
          );
        },
      )
      .finally(() => {
        this.settled.delete(done);
        if (!adopted || this.owed || this.fetchAgain || !this.lastFetchEmpty) this.wake();
      });
    this.settled.add(done);
  }

  /** Completes the finished jobs within `completeDelayMs`, with those finishing meanwhile; at once when they fill the slots. */
  private completeSoon(): void {
    if (this.stopped) return; // drain() completes them
    if (this.finished.length >= this.opts.slots) return this.completeFinished();
    this.completeTimer ??= setTimeout(() => this.completeFinished(), this.opts.completeDelayMs);
  }

  /** Starts completing the finished jobs, unless a completion is on its way (it takes them up when it is back). */
  private completeFinished(): void {
    clearTimeout(this.completeTimer);
    this.completeTimer = undefined;
    if (this.finished.length) this.completing ??= this.complete();
  }

  /** Completes every finished job in one statement; those finishing meanwhile go in the next. */
  private async complete(): Promise<void> {
    while (this.finished.length) {
      const batch = this.finished;
      this.finished = [];
      try {
        await this.boss.complete(this.queue, batch);
      } catch (e) {
        this.report('complete', e);
        this.finished.unshift(...batch); // still claimed; retried with the next batch, or at the next heartbeat
        break;
      }
    }
    this.completing = undefined;
  }

  private async refreshClaims(): Promise<void> {
    this.completeFinished();
    const held = [...[...this.running.values()].filter((c) => !c.local), ...this.finished];
    if (held.length) await this.boss.touch(this.queue, held).catch((e: unknown) => this.report('heartbeat', e));
  }

  private report(what: string, e: unknown): void {
    reportQueueError(`${this.queue} ${what}`, e);
  }
}
