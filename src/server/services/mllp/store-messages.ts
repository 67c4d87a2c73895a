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
 * Each promise resolves to the execution's id once its transaction has committed, or rejects: an
 * AppError for that message alone (pipeline not deployed, no free execution slot), any other error for
 * every message of the transaction (nothing of it was stored).
 *
 * Where this process works the execution queue, the messages it has free slots for run here, at once: their jobs
 * are written claimed by this process (Queue.enqueueClaimed) in the same transaction, and handed to its dispatcher
 * after the commit with what the run needs (admitted.ts) — no NOTIFY, fetch or read of the row. The job is there for
 * a crash: when this process dies, its heartbeat stops and pg-boss hands the run to another process, which resumes
 * it. The others are queued for any process, as before.
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
        let outcomes: (string | AppError)[];
        try {
          outcomes = await this.commit(batch, reserved, local);
        } catch (e) {
          this.queue.runClaimed([], reserved);
          for (const w of batch) w.reject(e);
          continue;
        }
        for (const [id, run] of local) noteAdmitted(id, run);
        this.queue.runClaimed([...local.keys()], reserved);
        for (const [i, w] of batch.entries()) {
          const outcome = outcomes[i]!;
          if (outcome instanceof AppError) w.reject(outcome);
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
   * One transaction for the batch: each message's execution id, or why that message was refused. The first
   * `reserved` admitted are this process's to run (`local`, filled as they are admitted).
   *
   * The pipelines' state (organization, deployed version) is the one last read here: the admission checks the version
   * in its own statement, and the messages of a pipeline deployed, undeployed or changed since are admitted anew after
   * one read of its state. So a steady feed's batch is its admission and its jobs, with no read of the pipeline.
   */
  private commit(batch: Waiting[], reserved: number, local: Map<string, AdmittedRun>): Promise<(string | AppError)[]> {
    local.clear();
    return this.db.transaction(async (tx) => {
      const outcomes: (string | AppError)[] = new Array<string | AppError>(batch.length);
      let pending = batch.map((_, i) => i);
      for (let attempt = 0; pending.length && attempt < 2; attempt++) {
        const ids = [...new Set(pending.map((i) => batch[i]!.target.pipelineId))];
        const read = attempt === 0 ? ids.filter((id) => !this.states.has(id)) : ids;
        await this.readStates(tx, read);
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
          const inputs = triggerInputs(await this.graph(tx, pipelineId, row.version), {
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
        // the first `reserved` are this process's to run if admitted (see below): the others are not woken for them (one
        // refused among them leaves a later one, run here, to wake them for nothing: harmless)
        const started = await startQueuedExecutions(
          tx,
          admissions.map(({ run }, k) => ({ ...run, testMode: false, status: 'queued', notify: local.size + k >= reserved })),
        );
        pending = retry;
        for (const [k, o] of started.entries()) {
          const { i, run } = admissions[k]!;
          // the pipeline changed since its state was read: read again, and its messages admitted anew (once)
          if (o === PIPELINE_CHANGED) pending.push(i);
          else if (o instanceof AppError) outcomes[i] = o;
          else {
            outcomes[i] = o.id;
            if (local.size < reserved) local.set(o.id, { ...run, policy: o.policy });
          }
        }
      }
      for (const i of pending) outcomes[i] = new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${batch[i]!.target.pipelineId} is not deployed.`);
      const admittedIds = outcomes.filter((o): o is string => typeof o === 'string');
      await this.queue.enqueueAll(
        tx,
        admittedIds.filter((id) => !local.has(id)),
      );
      await this.queue.enqueueClaimed(tx, [...local.keys()]);
      return outcomes;
    });
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
