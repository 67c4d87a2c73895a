import { and, eq } from 'drizzle-orm';
import { buildAck, parseMessage, serialize, type AckOptions, type Hl7v2Message } from '@/clinical/hl7v2';
import { buildGraph, triggerInputs, type Graph } from '@/engine/graph';
import type { MllpListenOptions, TriggerTarget } from '@/engine/node-type';
import { getNodeType } from '@/engine/nodes';
import type { Db } from '@/server/db/client';
import { executions, pipelines } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import type { Queue } from '@/server/queue/queue';
import { loadDefinition } from '../executions/runnable-pipeline';
import { startExecution } from '../executions/start-execution';

/** What a message that is not HL7 v2 is answered against: a header with the default delimiters. */
const UNKNOWN_SENDER = parseMessage('MSH|^~\\&|||||||ACK|UNKNOWN|P|2.5');

export interface Received {
  text: string;
  remoteAddress: string;
  receivedAt: string;
}

/**
 * Turns one received message into an execution of the deployed pipeline and answers its ACK (HL7 v2 text):
 * AA once stored (ack_mode stored) or once the run completed (completed); AE when that run failed; AR
 * when it could not be stored. Graphs are cached per pipeline version, so storing a message costs one
 * small read and the insert.
 */
export class MllpReceiver {
  private readonly graphs = new Map<string, { version: number; graph: Graph }>();

  constructor(
    private readonly db: Db,
    private readonly queue: Queue,
  ) {}

  async receive(target: TriggerTarget, options: MllpListenOptions, m: Received): Promise<string> {
    let message: Hl7v2Message;
    try {
      message = parseMessage(m.text);
    } catch (e) {
      return ack(UNKNOWN_SENDER, { code: 'AR', text: `Not one HL7 v2 message: ${(e as Error).message}`, error: { code: '100' } });
    }
    let id: string;
    try {
      id = await this.store(target, m);
    } catch (e) {
      const reason = e instanceof AppError ? e.message : 'the message could not be stored';
      if (!(e instanceof AppError)) logger.error('MLLP message not stored', { pipelineId: target.pipelineId, error: String(e) });
      return ack(message, { code: 'AR', text: reason, error: { code: '207', message: reason } });
    }
    if (options.ack_mode === 'stored') return ack(message, { code: 'AA' });
    const end = await this.outcome(id);
    if (end.status === 'completed') return ack(message, { code: 'AA' });
    const why = end.error ? `${end.error.code}: ${end.error.message}` : `the execution ended ${end.status}`;
    return ack(message, { code: 'AE', text: `Execution ${id} failed: ${why}`, error: { code: '207', message: why } });
  }

  /**
   * How a queued execution ended, read until it has (ack_mode completed). It runs on the queue like any
   * other, so a worker that dies hands it on and the sender still gets its answer.
   */
  private async outcome(id: string): Promise<{ status: string; error: { code: string; message: string } | null }> {
    for (let wait = 5; ; wait = Math.min(wait * 2, 250)) {
      const [row] = await this.db.select({ status: executions.status, error: executions.error }).from(executions).where(eq(executions.id, id));
      if (!row || !['queued', 'running'].includes(row.status)) return row ?? { status: 'deleted', error: null };
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The execution row of a message, queued for a worker (its job written in the same transaction). */
  private async store(target: TriggerTarget, m: Received): Promise<string> {
    const { pipelineId, orgId } = target;
    const [row] = await this.db
      .select({ version: pipelines.version, status: pipelines.status })
      .from(pipelines)
      .where(and(eq(pipelines.id, pipelineId), eq(pipelines.orgId, orgId)));
    if (row?.status !== 'deployed') throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipelineId} is not deployed.`);
    const inputs = triggerInputs(await this.graph(pipelineId, row.version), { kind: 'mllp', message: m.text, remoteAddress: m.remoteAddress, receivedAt: m.receivedAt });
    if (!inputs) throw new AppError('PIPELINE_NOT_DEPLOYED', `Pipeline ${pipelineId} is no longer started by an MLLP listener.`);
    const execution = { orgId, pipelineId, pipelineVersion: row.version, trigger: 'mllp', testMode: false, inputs, status: 'queued' as const };
    const started = await startExecution(this.db, execution, this.queue.enqueue);
    this.queue.wake();
    return started.id;
  }

  private async graph(pipelineId: string, version: number): Promise<Graph> {
    const cached = this.graphs.get(pipelineId);
    if (cached?.version === version) return cached.graph;
    const graph = buildGraph(await loadDefinition(this.db, pipelineId, version), getNodeType);
    this.graphs.set(pipelineId, { version, graph });
    return graph;
  }

  forget(pipelineId: string): void {
    this.graphs.delete(pipelineId);
  }
}

function ack(received: Hl7v2Message, options: AckOptions): string {
  return serialize(buildAck(received, options));
}
