import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite } from 'pg-boss';
import type { TriggerHost } from '@/engine/node-type';
import type { Database, Db } from '@/server/db/client';
import { errorForLog, logger } from '@/server/logger';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { logOutage } from '@/server/db/outage-log';
import type { Dispatcher } from './dispatcher';
import { prepareRepeatedStatements } from './prepared-statements';
import { beat, handOver, leave, type ClaimsOptions, type Whose } from './claims';
import { takeAdmitted } from './admitted';
import { FEED_ENDS_CHANNEL, HeldRuns, type HeldRun } from './held-runs';

export const EXECUTE_QUEUE = 'execute-pipeline';
/** Deliveries of an execution job after the first, before it is given up (its execution then ends failed). */
export const EXECUTE_RETRY_LIMIT = 5;
/** Cron jobs of deployed pipelines with a schedule trigger, one schedule per pipeline (key = its id). */
export const SCHEDULE_QUEUE = 'pipeline-schedule';
/**
 * NOTIFY channel of new execution jobs on Postgres: the start_execution SQL function notifies it when it
 * queues an execution; each process that works the queue LISTENs and fetches for its free slots.
 */
const JOBS_CHANNEL = 'clinflow_execution_jobs';
/** NOTIFY channel of inbound listeners opened or closed by one server process, for the others to follow. */
const LISTENERS_CHANNEL = 'clinflow_inbound_listeners';

/** The inbound side of a TriggerHost (src/server/services/mllp), closed with the queue. */
export type InboundListeners = Pick<TriggerHost, 'listen' | 'unlisten'> & { closeAll(): Promise<void> };

export interface ScheduleJob {
  pipelineId: string;
  orgId: string;
}

export interface ExecuteJob {
  executionId: string;
}

/**
 * What pg-boss's `complete` does to one claimed job (fenced to the attempt that was fetched, as it does), as a statement
 * to run inside the run's own last write: the run's end and its job's completion commit together, with no statement of
 * their own (see Dispatcher: the job is then not completed again).
 */
export function jobCompletion(job: { id: string; retryCount: number }) {
  return sql`update pgboss.job set completed_on = pgboss.job_now(), state = 'completed'
    where name = ${EXECUTE_QUEUE} and id = ${job.id}::uuid and retry_count = ${job.retryCount} and state = 'active'`;
}

export interface QueueOptions {
  /** Seconds without a heartbeat before a job of a dead worker is handed to another (>= 10). */
  heartbeatSeconds: number;
  /** How often the monitor looks for such jobs. */
  superviseIntervalSeconds: number;
  /** How often due cron schedules become jobs. */
  cronSeconds: number;
}

function timing(opts: QueueOptions) {
  return {
    superviseIntervalSeconds: opts.superviseIntervalSeconds,
    monitorIntervalSeconds: opts.superviseIntervalSeconds,
    cronWorkerIntervalSeconds: opts.cronSeconds,
    cronMonitorIntervalSeconds: opts.cronSeconds,
  };
}

export interface Queue {
  boss: PgBoss;
  /** Puts an execution on the queue inside `tx`, the transaction that wrote its row. */
  enqueue(tx: Db, executionId: string): Promise<void>;
  /** The same for several executions written in one transaction: their jobs in one statement. */
  enqueueAll(tx: Db, executionIds: string[]): Promise<void>;
  /**
   * After the commit of an enqueue: wakes an idle loop of this process (embedded). On Postgres the commit's
   * NOTIFY does that in every process that works the queue, this one included.
   */
  wake(): void;
  /**
   * For one execution about to be queued (its admission's transaction calls `enqueue`), the wake-up addressed: when
   * this process works the queue and has a slot free for the job (Dispatcher.reserve), it takes the job — the
   * admission is to tell the others nothing (`notify` false: NewExecution.notify) and this process fetches the job
   * after the commit; otherwise every process working the queue is woken at commit, as for any job. `settle` once
   * the admission is over: whether the job was committed.
   */
  takeOne(): { notify: boolean; settle(queued: boolean): void };
  /** The same around `admit`, settled with its outcome. */
  enqueueOne<T>(admit: (notify: boolean) => Promise<T>): Promise<T>;
  /**
   * Runs this process admits and runs itself (the MLLP feed: see MessageStore): `reserveLocal` takes up to `n` free
   * slots of its dispatcher (0 when it works no queue or has none free); their admission writes them claimed by
   * `instanceId` (NewExecution.claimedBy), with no queue job; `runClaimed`, after it committed, runs those it admitted
   * (none if it failed) and frees the reserved slots left over. The runs of a process that dies are handed to the queue
   * by another once its heartbeat is stale (claims.ts).
   */
  reserveLocal(n: number): number;
  runClaimed(executionIds: string[], reserved: number): void;
  /**
   * Runs this process admitted claimed by itself to start after the run before them (an MLLP connection's messages under
   * ack_mode stored: MessageStore), held until that one ended (held-runs.ts). `mustWait`: whether a run admitted now
   * after `executionId` must be held (false once this process wrote its end).
   */
  hold(runs: HeldRun[]): void;
  mustWait(executionId: string): boolean;
  /** Runs of `key` (an MLLP connection) this process admitted to run now: counted by `openFor` until they ended. */
  watch(runs: { id: string; key: string }[]): void;
  /** How many runs of `key` (HeldRun.key: an MLLP connection) are open — held here, queued or running — as far as this process knows. */
  openFor(key: string): number;
  /** This process instance (new per start): what its claims and its heartbeat row carry. */
  instanceId: string;
  /**
   * On a database shared by several processes (Postgres): the runs another process holds to start after a run this one
   * ends (an MLLP connection's next messages) are taken by that run's end (saveResult's `takeFor`) and handed here, to
   * run next in the slot it frees (held-runs.ts). Null on PGlite, where one process holds and runs them all.
   */
  successors: { taken(afterId: string, executionIds: string[]): void; tookElsewhere(executionId: string): boolean } | null;
  /** The execution queue's heartbeat (see QueueOptions). */
  heartbeatSeconds: number;
  /** Starts working the execution queue with `dispatcher`, woken on every job queued (Postgres LISTEN, or `wake`); stopped with the queue. */
  work(dispatcher: Dispatcher<ExecuteJob>): Promise<void>;
  /**
   * What trigger nodes use while their pipeline is deployed: cron schedules (one per pipeline, keyed by its
   * id) and, in a process that attached them, inbound listeners (MLLP ports).
   */
  triggers: TriggerHost;
  /**
   * Lets this process open the inbound ports of deployed pipelines (the web process; see runtime.ts). On
   * Postgres, a port opened or closed here is announced to the other processes (NOTIFY), and `resync` runs
   * when another process announces one, so every server process listens for exactly the deployed pipelines.
   */
  attachListeners(listeners: InboundListeners, resync: (pipelineId: string) => Promise<void>): Promise<void>;
  /** Stops, waiting up to `graceMs` for running executions; those still running then are failed, to be delivered again. */
  stop(graceMs?: number): Promise<void>;
}

/** A failure of the queue's `what`, readable (pg-boss's errors are often plain objects); while the database is away, said as an outage is. */
export function reportQueueError(what: string, e: unknown): void {
  if (isDatabaseUnavailable(e)) logOutage(`queue: the database is unavailable (${what}); jobs wait until it is back`, { error: errorForLog(e) });
  else logger.error(`queue: ${what} failed`, { error: errorForLog(e) });
}

/**
 * Queues jobs of runs handed over by their claims (claims.ts) in `tx`, as redelivered: started once already, so
 * pg-boss's fetch counts a retry (retry_count 1) and the run resumes as one whose worker died does. The processes that
 * work the queue are woken at commit (Postgres), as for any job: a held run handed on as its turn came (held-runs.ts)
 * would otherwise wait for their idle poll, and so would every run of its connection after it.
 */
export async function enqueueRedelivered(boss: PgBoss, tx: Db, jobs: { id: string; executionId: string }[]): Promise<void> {
  await boss.insert(
    EXECUTE_QUEUE,
    jobs.map(({ id, executionId }) => ({ id, data: { executionId } satisfies ExecuteJob })),
    { db: inTx(tx) },
  );
  await tx.execute(sql`update pgboss.job set started_on = pgboss.job_now()
    where name = ${EXECUTE_QUEUE} and id = any(${`{${jobs.map((j) => j.id).join(',')}}`}::uuid[])`);
  await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
}

/**
 * Hands claims to the queue (claims.ts), saying so when there were any: a warning when a process stopped without ending
 * its runs. The runs it claimed instead, to start after their predecessor, are held here (`held`).
 */
async function handOverAndLog(db: Db, claims: ClaimsOptions, whose: Whose, held: HeldRuns): Promise<void> {
  const handed = await handOver(db, claims, whose);
  held.hold(handed.held);
  const [queued, kept] = [handed.queued.length, handed.held.length];
  if (queued + kept === 0) return;
  if ('own' in whose) logger.info(`queue: ${queued} run(s) claimed here and not ended handed to the queue`);
  else
    logger.warn(`queue: ${queued + kept} run(s) claimed by a process that stopped taken over: ${queued} handed to the queue, ${kept} held here in order`, {
      executions: queued + kept,
    });
}

/**
 * pg-boss on our database: inside the embedded process on PGlite, shared by every web and worker
 * process on Postgres. Jobs of a killed worker are retried once their heartbeat stops.
 */
/** pg-boss's writes inside our transaction: a drizzle transaction is the query surface fromDrizzle takes, under a type of
 * each driver's own that fromDrizzle's signature cannot name (hence the cast). */
const inTx = (tx: unknown) => fromDrizzle(tx as never, sql);

/** pg-boss's own pool on Postgres. */
const BOSS_POOL = 5;
/** Connections a process's queue may hold besides the app's pool: pg-boss's, and one each for LISTEN on jobs and listeners. */
export const QUEUE_CONNECTIONS = BOSS_POOL + 2;

export async function createQueue(database: Database, opts: QueueOptions): Promise<Queue> {
  const postgres = database.kind === 'postgres';
  // pg-boss's own LISTEN wakes its own workers, which we do not use for executions (see Dispatcher); ours is in work()
  const boss = postgres
    ? new PgBoss({ connectionString: database.url!, max: BOSS_POOL, useListenNotify: false, ...timing(opts) })
    : new PgBoss({ db: fromPglite(database.pglite!), backend: 'pglite', ...timing(opts) });
  if (postgres) prepareRepeatedStatements(boss);
  boss.on('error', (e: unknown) => reportQueueError('pg-boss', e));
  await boss.start();
  await boss.createQueue(EXECUTE_QUEUE, { heartbeatSeconds: opts.heartbeatSeconds, retryLimit: EXECUTE_RETRY_LIMIT, retryDelay: 1, expireInSeconds: 60 * 60 });
  await boss.createQueue(SCHEDULE_QUEUE, { retryLimit: 0, expireInSeconds: 60 * 60 });
  // createQueue drops pg-boss's cached queue settings, which a send reads back on pg-boss's own connection: on
  // PGlite, a first enqueue inside our transaction (which holds the one connection) would wait for itself
  await boss.findJobs(EXECUTE_QUEUE, { id: '00000000-0000-4000-8000-000000000000' });
  let dispatcher: Dispatcher<ExecuteJob> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let inbound: InboundListeners | undefined;
  let peers: { announce(pipelineId: string): Promise<void>; end(): Promise<void> } | undefined;
  const claims: ClaimsOptions & { ticking?: NodeJS.Timeout } = {
    instanceId: randomUUID(),
    heartbeatSeconds: opts.heartbeatSeconds,
    enqueue: (tx, jobs) => enqueueRedelivered(boss, tx, jobs),
  };
  // a held run whose predecessor ended here runs here in a free slot (the one its predecessor freed), else it is queued
  // for any process
  const held: HeldRuns = new HeldRuns(
    database.db,
    claims.instanceId,
    (ids, here) => {
      const k = here ? (dispatcher?.reserveMany(ids.length) ?? 0) : 0;
      if (k)
        dispatcher!.adopt(
          ids.slice(0, k).map((executionId) => ({ id: executionId, data: { executionId } })),
          k,
        );
      const queued = ids.slice(k);
      if (queued.length === 0) return;
      for (const id of queued) takeAdmitted(id); // read from its row where it runs
      handOver(database.db, claims, { own: queued })
        .then((handed) => {
          held.hold(handed.held);
          if (!postgres) dispatcher?.wake(); // on Postgres the hand-over's NOTIFY wakes every process that works the queue
        })
        .catch((e: unknown) => reportQueueError('hand-over', e));
    },
    (e) => reportQueueError('held runs', e),
  );
  const heartbeat = async (first: Whose) => {
    if (claims.ticking) return;
    // this process's heartbeat is there before it claims anything; the runs a previous instance claimed are handed to
    // the queue: on PGlite at once (it had the database to itself), on Postgres once its heartbeat is stale
    claims.ticking = setInterval(() => {
      beat(database.db, claims)
        .then((stale) => (stale ? handOverAndLog(database.db, claims, { stale: true }, held) : undefined))
        .catch((e: unknown) => reportQueueError('heartbeat', e));
    }, opts.heartbeatSeconds * 1000).unref();
    await beat(database.db, claims);
    await handOverAndLog(database.db, claims, first, held);
  };
  const takeOne: Queue['takeOne'] = () => {
    const own = dispatcher?.reserve() ?? false;
    return {
      notify: !own,
      settle(queued) {
        if (own) dispatcher!.settle(queued);
        else if (queued && !postgres) dispatcher?.wake();
      },
    };
  };
  return {
    boss,
    heartbeatSeconds: opts.heartbeatSeconds,
    triggers: {
      async schedule(target, cron, timezone) {
        const job: ScheduleJob = { pipelineId: target.pipelineId, orgId: target.orgId };
        await boss.schedule(SCHEDULE_QUEUE, cron, job, { tz: timezone, key: target.pipelineId });
        logger.info(`scheduled pipeline ${target.pipelineId}: ${cron} (${timezone})`);
      },
      async unschedule(target) {
        await boss.unschedule(SCHEDULE_QUEUE, target.pipelineId);
      },
      async listen(target, options) {
        if (!inbound) throw new Error('This process takes no inbound connections: MLLP listeners run in the web process.');
        await inbound.listen(target, options);
        await peers?.announce(target.pipelineId);
      },
      async unlisten(target) {
        await inbound?.unlisten(target);
        await peers?.announce(target.pipelineId);
      },
    },
    async attachListeners(listeners, resync) {
      inbound = listeners;
      // a process that receives MLLP messages holds runs (hold), which its heartbeat vouches for (on PGlite the process
      // works the queue: its heartbeat is on already)
      if (postgres) await heartbeat({ stale: true });
      if (!postgres || peers) return;
      const { default: pg } = await import('postgres');
      const channel = pg(database.url!, { max: 1, onnotice: () => {} });
      // the ends of MLLP runs, and the runs they took, are told to the processes that receive the messages (ends-batch.ts
      // takeSuccessors); listening again after its connection was lost, this one reads at once what it may have missed.
      // A process that only works the queue reads what it holds (runs taken over from a dead process) as before.
      await channel.listen(
        FEED_ENDS_CHANNEL,
        (payload) => held.told(payload),
        () => held.listening(),
      );
      const self = `${process.pid}:`;
      await channel.listen(LISTENERS_CHANNEL, (payload) => {
        if (payload.startsWith(self)) return; // this process has done it already
        const pipelineId = payload.slice(payload.indexOf(':') + 1);
        resync(pipelineId).catch((e: unknown) =>
          logger.warn(`the listener of pipeline ${pipelineId} did not follow its change: ${e instanceof Error ? e.message : String(e)}`),
        );
      });
      peers = {
        announce: (pipelineId) => channel.notify(LISTENERS_CHANNEL, `${self}${pipelineId}`).then(() => undefined),
        end: () => channel.end({ timeout: 5 }),
      };
    },
    async enqueue(tx, executionId) {
      await boss.send(EXECUTE_QUEUE, { executionId } satisfies ExecuteJob, { db: inTx(tx) });
    },
    async enqueueAll(tx, executionIds) {
      if (executionIds.length === 0) return;
      const jobs = executionIds.map((executionId) => ({ data: { executionId } satisfies ExecuteJob }));
      await boss.insert(EXECUTE_QUEUE, jobs, { db: inTx(tx) });
    },
    wake() {
      if (!postgres) dispatcher?.wake();
    },
    reserveLocal(n) {
      return dispatcher?.reserveMany(n) ?? 0;
    },
    runClaimed(executionIds, reserved) {
      dispatcher?.adopt(
        executionIds.map((executionId) => ({ id: executionId, data: { executionId } })),
        reserved,
      );
    },
    instanceId: claims.instanceId,
    successors: postgres ? { taken: (afterId, ids) => held.taken(afterId, ids), tookElsewhere: (id) => held.tookElsewhere(id) } : null,
    hold: (runs) => held.hold(runs),
    mustWait: (executionId) => held.mustWait(executionId),
    watch: (runs) => held.watch(runs),
    openFor: (key) => held.openFor(key),
    takeOne,
    async enqueueOne(admit) {
      const taken = takeOne();
      let queued = false;
      try {
        const admitted = await admit(taken.notify);
        queued = true;
        return admitted;
      } finally {
        taken.settle(queued);
      }
    },
    async work(d) {
      if (dispatcher) throw new Error('This process already works the execution queue.');
      dispatcher = d;
      if (postgres) {
        const { default: pg } = await import('postgres');
        const listener = pg(database.url!, { max: 1, onnotice: () => {} });
        await listener.listen(JOBS_CHANNEL, () => d.wake());
        unlisten = () => listener.end({ timeout: 5 });
      }
      d.watch = {
        begun: (job) => held.started(job.data.executionId),
        ended: (job, ended) => held.finished(job.data.executionId, ended),
      };
      await heartbeat(postgres ? { stale: true } : { others: true });
      // jobs this process took on and cannot run soon are handed to the others (see Dispatcher.reserve); runs it
      // claimed and does not finish (they failed, or it stops) go to the queue
      d.start(postgres ? () => database.db.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`) : undefined, (ids) =>
        handOverAndLog(database.db, claims, { own: ids }, held),
      );
    },
    async stop(graceMs = 30_000) {
      await inbound?.closeAll();
      await peers?.end();
      await unlisten?.();
      await dispatcher?.stop(graceMs);
      held.stop(); // what is still held stays claimed here: once this heartbeat is gone, another process holds it
      clearInterval(claims.ticking);
      if (claims.ticking) await leave(database.db, claims).catch((e: unknown) => reportQueueError('heartbeat', e));
      await boss.stop({ graceful: true, timeout: graceMs, close: postgres });
    },
  };
}
