import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { buildGraph, triggerInputs, type Graph } from '@/engine/graph';
import type { TriggerTarget } from '@/engine/node-type';
import { getNodeType } from '@/engine/nodes';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { Queue } from '@/server/queue/queue';
import { noteAdmitted, type AdmittedRun } from '@/server/queue/admitted';
import { loadDefinition } from '../executions/runnable-pipeline';
import { AFTER_REFUSED, PIPELINE_CHANGED, startQueuedExecutions } from '../executions/start-execution';
import { behindRefused, RefusedChains } from './refused-chains';
import { ConnectionRoom } from './room';

/** Messages stored by one transaction at most (an organization has 100 execution slots anyway). */
const MAX_BATCH = 100;

/**
 * Runs of one connection open at once at most (ack_mode stored: held, queued or running): past it, its messages wait
 * (their ACKs come later), so that a sender whose runs are slower than its messages come leaves the organization's
 * other execution slots (100 queued or running) free for its other work; one that waited ROOM_WAIT_MS is refused (AR:
 * the sender sends it again). A connection's runs go one at a time (or, by patient, ten at a time): a deeper backlog
 * would buy no throughput.
 */
export const MAX_OPEN_PER_CONNECTION = 10;
/** How long a message waits for its connection to have fewer than MAX_OPEN_PER_CONNECTION runs open (ConnectionRoom). */
export const ROOM_WAIT_MS = 2_000;
/**
 * The senders' keys (`order: patient`) whose last run is remembered, the least recently used forgotten past it: a key's
 * run is long over when ten thousand others came since (an organization has 100 runs queued or running at most).
 */
const KEYS_REMEMBERED = 10_000;

/**
 * How one message of a batch is to be admitted: its execution's id, and the run it starts after (held until that ended),
 * with that run's message's place in the batch if it is in it; or why it is refused before its admission.
 */
interface Plan {
  id: string;
  afterId?: string;
  afterIndex?: number;
  held: boolean;
  refused?: AppError;
}

/** The messages of a batch that may run at once (not held): those the process reserves slots for. */
const runnable = (plans: Plan[]) => plans.filter((p) => !p.held && !p.refused).length;

type HeldAdmission = AdmittedRun & { afterId: string; key?: string };

export interface Received {
  text: string;
  remoteAddress: string;
  receivedAt: string;
  /**
   * The connection whose messages run in the order received (ack_mode stored: MessageStore.opened), if any: each run
   * starts once the run of the message before it on the connection ended.
   */
  connection?: string;
  /**
   * With `connection`, under the listener's `order: patient`: whose message it is (a patient's identifier). Its run starts
   * after the run of the sender's message before it with the same key, on any connection, instead of the connection's.
   */
  orderKey?: string;
}

/** A batch being admitted: its messages, their plans, the slots reserved here, and the runs admitted to run or be held here. */
interface Admission {
  batch: Waiting[];
  plans: Plan[];
  reserved: number;
  local: Map<string, AdmittedRun>;
  held: Map<string, HeldAdmission>;
}

interface Waiting {
  target: TriggerTarget;
  m: Received;
  /** Its number in the order of arrival (RefusedChains). */
  arrival: number;
  /** The connection whose room it entered (ConnectionRoom): its runs start in order. */
  ordered?: string;
  resolve(id: string): void;
  reject(e: unknown): void;
}

/**
 * Stores received MLLP messages as queued executions, committing together the messages that arrive while
 * a commit is under way (group commit): one transaction, one read of the pipelines' state and one queue
 * insert for the lot, instead of a transaction per message. The first message of a quiet spell is stored
 * at once, alone. Messages are stored in the order `store` is called (a connection's order is kept).
 * Each promise resolves to the execution's id once its statement (or transaction) has committed, or rejects: an
 * AppError for that message alone (pipeline not deployed, no free execution slot), any other error for
 * every message that statement or transaction was to store (nothing of them was stored).
 *
 * Where this process works the execution queue, the messages it has free slots for run here, at once: their rows are
 * written claimed by this process (executions.claimed_by) by their admission, with no queue job, and handed to its
 * dispatcher after the commit with what the run needs (admitted.ts) — no NOTIFY, fetch or read of the row. When this
 * process dies its heartbeat stops, and another hands those runs to the queue, which resumes them (queue/claims.ts).
 * The others are queued for any process, as before.
 *
 * A connection's messages run in the order received (`connection`, ack_mode stored): each names the run of the message
 * before it (executions.after_id), and while that run is queued or running it is admitted held — claimed by this
 * process, with no queue job and no slot — and runs once that one ended (queue/held-runs.ts). A connection that closes
 * leaves its last run to the next connection of the same sender, so a sender that reconnects keeps its order too. Under
 * the listener's `order: patient` a message follows the sender's last one about the same patient (Received.orderKey),
 * from whichever connection, and the messages of different patients run side by side. A connection has at most
 * MAX_OPEN_PER_CONNECTION runs open: its next messages wait for room (ConnectionRoom). A message refused refuses the
 * messages of its chain that had arrived behind it (RefusedChains), in its batch's statement too (AFTER_REFUSED).
 */
export class MessageStore {
  private readonly waiting: Waiting[] = [];
  private draining = false;
  /** The pipelines' state as last read (commit): organization, status, deployed version. */
  private readonly states = new Map<string, { orgId: string; status: string; version: number | null }>();
  /** Graphs by pipeline version: the trigger's inputs are made from it. */
  private readonly graphs = new Map<string, { version: number; graph: Graph }>();
  /**
   * The sender of each open connection, the last run admitted of each (none before its first), and of each sender
   * (pipeline and address): where a sender's next connection starts. A message stored as its connection closed has no
   * ACK: it is sent again. Under `order: patient`, the last run of each sender's key (`lastOfKey`, keyed by `chainOf`),
   * whichever connection brought it.
   */
  private readonly lastOf = new Map<string, string>();
  private readonly senderOf = new Map<string, string>();
  private readonly lastOfSender = new Map<string, string>();
  private readonly lastOfKey = new LRUCache<string, string>({ max: KEYS_REMEMBERED });
  private readonly room: ConnectionRoom;
  private readonly refusals = new RefusedChains();

  constructor(
    private readonly db: Db,
    private readonly queue: Queue,
    roomWaitMs = ROOM_WAIT_MS,
  ) {
    this.room = new ConnectionRoom((connection) => queue.openFor(connection), MAX_OPEN_PER_CONNECTION, roomWaitMs);
  }

  store(target: TriggerTarget, m: Received): Promise<string> {
    const arrival = this.refusals.arrived();
    const ordered = m.connection !== undefined && this.senderOf.has(m.connection) ? m.connection : undefined;
    if (ordered === undefined) return this.admitted({ target, m, arrival });
    return this.room.enter(ordered).then((entered) => {
      if (entered) return this.admitted({ target, m, arrival, ordered });
      const why = `${MAX_OPEN_PER_CONNECTION} earlier messages of this connection are still waiting for their turn or running: send this one again later.`;
      throw new AppError('CONCURRENCY_LIMIT', why);
    });
  }

  private admitted(w: Omit<Waiting, 'resolve' | 'reject'>): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...w, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /**
   * A connection opens whose messages run in order (see Received.connection), after the last run admitted of its
   * sender: a sender that reconnects (its connection cut, or closed after each batch) keeps its order.
   */
  opened(connection: string, sender: string): void {
    const last = this.lastOfSender.get(sender);
    if (last) this.lastOf.set(connection, last);
    this.senderOf.set(connection, sender);
  }

  closed(connection: string): void {
    this.refusals.forget(connection);
    this.lastOf.delete(connection);
    this.senderOf.delete(connection);
    this.room.closed(connection);
  }

  forget(pipelineId: string): void {
    this.graphs.delete(pipelineId);
    this.states.delete(pipelineId);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        const plans = this.plan(batch);
        const reserved = this.queue.reserveLocal(runnable(plans));
        const local = new Map<string, AdmittedRun>();
        const held = new Map<string, HeldAdmission>();
        // each message's execution id once its statement committed, or why it was refused, or the error that stopped it
        const outcomes = new Array<string | AppError | { error: unknown } | undefined>(batch.length);
        try {
          await this.commit({ batch, plans, reserved, local, held }, outcomes);
        } catch (e) {
          for (const i of batch.keys()) outcomes[i] ??= { error: e };
        }
        for (const [id, run] of [...local, ...held]) noteAdmitted(id, run);
        // the runs of ordered connections count for their connection until they ended (ConnectionRoom)
        this.queue.watch(
          batch.flatMap((w, i) =>
            w.ordered !== undefined && typeof outcomes[i] === 'string' && !held.has(outcomes[i]) ? [{ id: outcomes[i], key: w.ordered }] : [],
          ),
        );
        this.queue.runClaimed([...local.keys()], reserved);
        this.queue.hold([...held].map(([id, run]) => ({ id, afterId: run.afterId, key: run.key })));
        for (const w of batch) if (w.ordered !== undefined) this.room.left(w.ordered); // counted as open now, if admitted
        for (const [i, w] of batch.entries()) {
          const outcome = outcomes[i]!;
          if (typeof outcome !== 'string') {
            const chain = this.chainOf(w.m);
            if (chain !== undefined) this.refusals.refused(chain);
            w.reject(outcome instanceof AppError ? outcome : outcome.error);
          } else {
            w.resolve(outcome);
            this.admittedLast(w.m, outcome);
            if (!local.has(outcome) && !held.has(outcome)) this.queue.wake();
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * The runs a message's run follows: its connection's (the connection's id), or under `order: patient` its sender's with
   * the same key (sender and key); none when its runs keep no order.
   */
  private chainOf(m: Received): string | undefined {
    const sender = m.connection === undefined ? undefined : this.senderOf.get(m.connection);
    if (sender === undefined) return undefined;
    return m.orderKey === undefined ? m.connection : `${sender}\u0000${m.orderKey}`;
  }

  /** The run admitted last of a message's chain: the next message of the chain starts after it. */
  private admittedLast(m: Received, id: string): void {
    const chain = this.chainOf(m);
    if (chain === undefined) return;
    if (m.orderKey === undefined) {
      this.lastOf.set(chain, id);
      this.lastOfSender.set(this.senderOf.get(m.connection!)!, id);
      return;
    }
    this.lastOfKey.set(chain, id);
  }

  /**
   * Each message's execution id, and the run it starts after: the last of its chain (`chainOf`), or the one before it in
   * this batch. It is held unless that run's end was written here (Queue.mustWait).
   */
  private plan(batch: Waiting[]): Plan[] {
    const last = new Map<string, { id: string; index: number }>();
    return batch.map(({ m, arrival }, index) => {
      const id = randomUUID();
      const chain = this.chainOf(m);
      if (chain === undefined) return { id, held: false };
      const refused = this.refusals.refusal(chain, arrival);
      if (refused) return { id, held: false, refused };
      const inBatch = last.get(chain);
      const afterId = inBatch?.id ?? (m.orderKey === undefined ? this.lastOf : this.lastOfKey).get(chain);
      const held = afterId !== undefined && (inBatch !== undefined || this.queue.mustWait(afterId));
      last.set(chain, { id, index });
      return { id, afterId, afterIndex: inBatch?.index, held };
    });
  }

  /**
   * Stores the batch: each message's execution id, or why that message was refused (`outcomes`, set as they commit).
   * The first `reserved` admitted and not held are this process's to run (`local`, set as they commit): written claimed
   * by it (executions.claimed_by, queue/claims.ts), with no queue job; the held ones (`held`) are claimed by it too.
   *
   * When every message may run here or is held (the steady feed), the batch is one statement, atomic on its own: its
   * admission, with no transaction around it. Messages refused as PIPELINE_CHANGED by it are admitted anew by a second
   * one (after a read of their pipelines): should that one fail, the first one's messages are stored all the same. A
   * batch with messages for the queue (no free slot here) is one transaction: the admission and those messages' jobs.
   */
  private async commit(a: Admission, outcomes: (string | AppError | object | undefined)[]) {
    if (a.reserved >= runnable(a.plans)) return this.admit(this.db, a, outcomes);
    const staged = new Array<string | AppError | undefined>(a.batch.length);
    const claimed = { ...a, local: new Map<string, AdmittedRun>(), held: new Map<string, HeldAdmission>() };
    await this.db.transaction(async (tx) => {
      await this.admit(tx, claimed, staged);
      const queued = staged.filter((o): o is string => typeof o === 'string' && !claimed.local.has(o) && !claimed.held.has(o));
      await this.queue.enqueueAll(tx, queued);
    });
    for (const [i, o] of staged.entries()) outcomes[i] = o;
    for (const [id, run] of claimed.local) a.local.set(id, run);
    for (const [id, run] of claimed.held) a.held.set(id, run);
  }

  /**
   * Admits the batch on `q` (a transaction, or the database: each statement then commits on its own), setting each
   * message's outcome as its statement returns.
   *
   * The pipelines' state (organization, deployed version) is the one last read here: the admission checks the version
   * in its own statement, and the messages of a pipeline deployed, undeployed or changed since are admitted anew after
   * one read of its state. So a steady feed's batch is its admission alone, with no read of the pipeline.
   */
  private async admit(q: Db, a: Admission, outcomes: (string | AppError | object | undefined)[]) {
    const { batch, plans, reserved, local, held } = a;
    for (const [i, plan] of plans.entries()) if (plan.refused) outcomes[i] = plan.refused;
    let pending = [...plans.keys()].filter((i) => !plans[i]!.refused);
    for (let attempt = 0; pending.length && attempt < 2; attempt++) {
      const ids = [...new Set(pending.map((i) => batch[i]!.target.pipelineId))];
      const read = attempt === 0 ? ids.filter((id) => !this.states.has(id)) : ids;
      await this.readStates(q, read);
      const retry: number[] = [];
      // each message's admission, or why it is refused before one; admitted together, in the order received
      const admissions: { i: number; run: AdmittedRun; mine: boolean }[] = [];
      // the first `reserved` not held are this process's to run if admitted: written claimed by it, and nobody is woken
      // for them (one refused among them leaves its slot unused here: the others are queued as usual)
      let taken = local.size;
      for (const i of pending) {
        const { target, m } = batch[i]!;
        const { pipelineId, orgId } = target;
        const row = this.states.get(pipelineId);
        if (row?.orgId !== orgId || row.status !== 'deployed' || row.version === null) {
          // a refusal is decided on a state read now, never on one kept from before
          if (!read.includes(pipelineId)) retry.push(i);
          else outcomes[i] = new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipelineId} is not deployed.`);
          continue;
        }
        const inputs = triggerInputs(await this.graph(q, pipelineId, row.version), {
          kind: 'mllp',
          message: m.text,
          remoteAddress: m.remoteAddress,
          receivedAt: m.receivedAt,
        });
        if (!inputs && !read.includes(pipelineId)) {
          retry.push(i);
          continue;
        }
        if (!inputs) {
          outcomes[i] = new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipelineId} is no longer started by an MLLP listener.`);
          continue;
        }
        const mine = !plans[i]!.held && taken++ < reserved;
        admissions.push({ i, mine, run: { orgId, pipelineId, pipelineVersion: row.version, trigger: 'mllp', inputs, policy: 'full' } });
      }
      const claimedBy = this.queue.instanceId;
      const started = await startQueuedExecutions(
        q,
        admissions.map(({ i, run, mine }) => {
          const { id, afterId, afterIndex, held: waits } = plans[i]!;
          const own = mine || waits;
          const afterInBatch = afterIndex !== undefined;
          return { ...run, id, afterId, afterInBatch, testMode: false, status: 'queued', notify: !own, claimedBy: own ? claimedBy : undefined };
        }),
      );
      pending = retry;
      for (const [k, o] of started.entries()) {
        const { i, run, mine } = admissions[k]!;
        const plan = plans[i]!;
        // the pipeline changed since its state was read: read again, and its messages admitted anew (once); one whose
        // message before it in the batch was not admitted is refused, or admitted anew with it
        if (o === PIPELINE_CHANGED) pending.push(i);
        else if (o === AFTER_REFUSED) {
          if (outcomes[plan.afterIndex!] === undefined) pending.push(i);
          else outcomes[i] = behindRefused();
        } else if (o instanceof AppError) outcomes[i] = o;
        else {
          outcomes[i] = o.id;
          if (plan.held) held.set(o.id, { ...run, policy: o.policy, afterId: plan.afterId!, key: batch[i]!.m.connection });
          else if (mine) local.set(o.id, { ...run, policy: o.policy });
        }
      }
      pending.sort((x, y) => x - y); // admitted anew in the order received
    }
    for (const i of pending) outcomes[i] = new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${batch[i]!.target.pipelineId} is not deployed.`);
  }

  /** Reads the state of `pipelineIds` (organization, status, deployed version); one no longer there is forgotten. */
  private async readStates(tx: Db, pipelineIds: string[]): Promise<void> {
    if (pipelineIds.length === 0) return;
    // the deployed version runs: a version saved since is not live until it is deployed
    const rows = await tx
      .select({ id: pipelines.id, orgId: pipelines.orgId, version: pipelines.deployedVersion, status: pipelines.status })
      .from(pipelines)
      .where(inArray(pipelines.id, pipelineIds));
    for (const id of pipelineIds) this.states.delete(id);
    for (const r of rows) this.states.set(r.id, r);
  }

  private async graph(tx: Db, pipelineId: string, version: number): Promise<Graph> {
    const cached = this.graphs.get(pipelineId);
    if (cached?.version === version) return cached.graph;
    const graph = buildGraph(await loadDefinition(tx, pipelineId, version), getNodeType);
    this.graphs.set(pipelineId, { version, graph });
    return graph;
  }
}
