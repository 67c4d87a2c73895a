import { eq, inArray } from 'drizzle-orm';
import { buildGraph, triggerInputs, type Graph } from '@/engine/graph';
import type { TriggerTarget } from '@/engine/node-type';
import { getNodeType } from '@/engine/nodes';
import type { Db } from '@/server/db/client';
import { organizations, pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { Queue } from '@/server/queue/queue';
import { noteAdmitted, type AdmittedRun } from '../executions/admitted';
import { pipelinePolicy } from '../executions/data-policy';
import { loadDefinition } from '../executions/runnable-pipeline';
import { startQueuedExecutions } from '../executions/start-execution';

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
   */
  private commit(batch: Waiting[], reserved: number, local: Map<string, AdmittedRun>): Promise<(string | AppError)[]> {
    local.clear();
    return this.db.transaction(async (tx) => {
      const pipelineIds = [...new Set(batch.map((w) => w.target.pipelineId))];
      // the deployed version runs: a version saved since is not live until it is deployed
      const rows = await tx
        .select({ id: pipelines.id, orgId: pipelines.orgId, version: pipelines.deployedVersion, status: pipelines.status, policy: pipelinePolicy })
        .from(pipelines)
        .leftJoin(organizations, eq(organizations.id, pipelines.orgId))
        .where(inArray(pipelines.id, pipelineIds));
      const state = new Map(rows.map((r) => [r.id, r]));
      // each message's admission, or why it is refused before one; admitted together, in the order received
      const outcomes: (string | AppError | AdmittedRun)[] = [];
      for (const { target, m } of batch) {
        const { pipelineId, orgId } = target;
        const row = state.get(pipelineId);
        if (row?.orgId !== orgId || row.status !== 'deployed' || row.version === null) {
          outcomes.push(new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipelineId} is not deployed.`));
          continue;
        }
        const inputs = triggerInputs(await this.graph(tx, pipelineId, row.version), {
          kind: 'mllp',
          message: m.text,
          remoteAddress: m.remoteAddress,
          receivedAt: m.receivedAt,
        });
        if (!inputs) {
          outcomes.push(new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipelineId} is no longer started by an MLLP listener.`));
          continue;
        }
        outcomes.push({ orgId, pipelineId, pipelineVersion: row.version, trigger: 'mllp', inputs, policy: row.policy });
      }
      const admissions = outcomes.filter((o): o is AdmittedRun => !(o instanceof AppError));
      // the first `reserved` are this process's to run if admitted (see below): the others are not woken for them (one
      // refused among them leaves a later one, run here, to wake them for nothing: harmless)
      const started = await startQueuedExecutions(
        tx,
        admissions.map((a, i) => ({ ...a, testMode: false, status: 'queued', notify: i >= reserved })),
      );
      // no free execution slot refuses a message alone, the others are stored
      let next = 0;
      const ids = outcomes.map((o) => (o instanceof AppError ? o : started[next++]!));
      const admittedIds = ids.filter((o): o is string => typeof o === 'string');
      for (const [i, o] of ids.entries()) {
        if (typeof o === 'string' && local.size < reserved) local.set(o, outcomes[i] as AdmittedRun);
      }
      await this.queue.enqueueAll(
        tx,
        admittedIds.filter((id) => !local.has(id)),
      );
      await this.queue.enqueueClaimed(tx, [...local.keys()]);
      return ids;
    });
  }

  private async graph(tx: Db, pipelineId: string, version: number): Promise<Graph> {
    const cached = this.graphs.get(pipelineId);
    if (cached?.version === version) return cached.graph;
    const graph = buildGraph(await loadDefinition(tx, pipelineId, version), getNodeType);
    this.graphs.set(pipelineId, { version, graph });
    return graph;
  }
}
