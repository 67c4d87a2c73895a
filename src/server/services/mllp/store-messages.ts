import { inArray } from 'drizzle-orm';
import { buildGraph, triggerInputs, type Graph } from '@/engine/graph';
import type { TriggerTarget } from '@/engine/node-type';
import { getNodeType } from '@/engine/nodes';
import type { Db } from '@/server/db/client';
import { pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { Queue } from '@/server/queue/queue';
import { noteAdmitted, type AdmittedRun } from '../executions/admitted';
import { loadDefinition } from '../executions/runnable-pipeline';
import { PIPELINE_CHANGED, startQueuedExecutions } from '../executions/start-execution';

/** Messages stored by one transaction at most (an organization has 100 execution slots anyway). */
const MAX_BATCH = 100;

export interface Received {
  text: string;
  remoteAddress: string;
  receivedAt: string;
}

interface Waiting {
  target: TriggerTarget;
  m: Received;
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
 */
export class MessageStore {
  private readonly waiting: Waiting[] = [];
  private draining = false;
  /** The pipelines' state as last read (commit): organization, status, deployed version. */
  private readonly states = new Map<string, { orgId: string; status: string; version: number | null }>();
  /** Graphs by pipeline version: the trigger's inputs are made from it. */
  private readonly graphs = new Map<string, { version: number; graph: Graph }>();

  constructor(
    private readonly db: Db,
    private readonly queue: Queue,
  ) {}

  store(target: TriggerTarget, m: Received): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ target, m, resolve, reject });
      if (!this.draining) void this.drain();
    });
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
        const reserved = this.queue.reserveLocal(batch.length);
        const local = new Map<string, AdmittedRun>();
        // each message's execution id once its statement committed, or why it was refused, or the error that stopped it
        const outcomes = new Array<string | AppError | { error: unknown } | undefined>(batch.length);
        try {
          await this.commit(batch, reserved, local, outcomes);
        } catch (e) {
          for (const i of batch.keys()) outcomes[i] ??= { error: e };
        }
        for (const [id, run] of local) noteAdmitted(id, run);
        this.queue.runClaimed([...local.keys()], reserved);
        for (const [i, w] of batch.entries()) {
          const outcome = outcomes[i]!;
          if (outcome instanceof AppError) w.reject(outcome);
          else if (typeof outcome !== 'string') w.reject(outcome.error);
          else {
            w.resolve(outcome);
            if (!local.has(outcome)) this.queue.wake();
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Stores the batch: each message's execution id, or why that message was refused (`outcomes`, set as they commit).
   * The first `reserved` admitted are this process's to run (`local`, set as they commit): written claimed by it
   * (executions.claimed_by, queue/claims.ts), with no queue job.
   *
   * When every message may run here (the steady feed), the batch is one statement, atomic on its own: its admission,
   * with no transaction around it. Messages refused as PIPELINE_CHANGED by it are admitted anew by a second one (after a
   * read of their pipelines): should that one fail, the first one's messages are stored all the same. A batch with
   * messages for the queue (no free slot here) is one transaction: the admission and those messages' jobs.
   */
  private async commit(batch: Waiting[], reserved: number, local: Map<string, AdmittedRun>, outcomes: (string | AppError | object | undefined)[]) {
    if (reserved >= batch.length) return this.admit(this.db, batch, reserved, local, outcomes);
    const staged = new Array<string | AppError | undefined>(batch.length);
    const claimed = new Map<string, AdmittedRun>();
    await this.db.transaction(async (tx) => {
      await this.admit(tx, batch, reserved, claimed, staged);
      const queued = staged.filter((o): o is string => typeof o === 'string' && !claimed.has(o));
      await this.queue.enqueueAll(tx, queued);
    });
    for (const [i, o] of staged.entries()) outcomes[i] = o;
    for (const [id, run] of claimed) local.set(id, run);
  }

  /**
   * Admits the batch on `q` (a transaction, or the database: each statement then commits on its own), setting each
   * message's outcome as its statement returns.
   *
   * The pipelines' state (organization, deployed version) is the one last read here: the admission checks the version
   * in its own statement, and the messages of a pipeline deployed, undeployed or changed since are admitted anew after
   * one read of its state. So a steady feed's batch is its admission alone, with no read of the pipeline.
   */
  private async admit(q: Db, batch: Waiting[], reserved: number, local: Map<string, AdmittedRun>, outcomes: (string | AppError | object | undefined)[]) {
    let pending = batch.map((_, i) => i);
    for (let attempt = 0; pending.length && attempt < 2; attempt++) {
      const ids = [...new Set(pending.map((i) => batch[i]!.target.pipelineId))];
      const read = attempt === 0 ? ids.filter((id) => !this.states.has(id)) : ids;
      await this.readStates(q, read);
      const retry: number[] = [];
      // each message's admission, or why it is refused before one; admitted together, in the order received
      const admissions: { i: number; run: AdmittedRun }[] = [];
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
        admissions.push({ i, run: { orgId, pipelineId, pipelineVersion: row.version, trigger: 'mllp', inputs, policy: 'full' } });
      }
      // the first `reserved` are this process's to run if admitted: written claimed by it, and nobody is woken for them
      // (one refused among them leaves its slot unused here: the others are queued as usual)
      const own = (k: number) => local.size + k < reserved;
      const claimedBy = this.queue.instanceId;
      const started = await startQueuedExecutions(
        q,
        admissions.map(({ run }, k) => ({ ...run, testMode: false, status: 'queued', notify: !own(k), claimedBy: own(k) ? claimedBy : undefined })),
      );
      const owned = local.size;
      pending = retry;
      for (const [k, o] of started.entries()) {
        const { i, run } = admissions[k]!;
        // the pipeline changed since its state was read: read again, and its messages admitted anew (once)
        if (o === PIPELINE_CHANGED) pending.push(i);
        else if (o instanceof AppError) outcomes[i] = o;
        else {
          outcomes[i] = o.id;
          if (owned + k < reserved) local.set(o.id, { ...run, policy: o.policy });
        }
      }
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
