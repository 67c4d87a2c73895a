import { eq } from 'drizzle-orm';
import { buildAck, get, parseMessage, serialize, type AckOptions, type Hl7v2Message } from '@/clinical/hl7v2';
import type { MllpListenOptions, TriggerTarget } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { executions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import type { Queue } from '@/server/queue/queue';
import { MessageStore, type Received } from './store-messages';

/** What a message that is not HL7 v2 is answered against: a header with the default delimiters. */
const UNKNOWN_SENDER = parseMessage('MSH|^~\\&|||||||ACK|UNKNOWN|P|2.5');

export type { Received };

/**
 * Turns one received message into an execution of the deployed pipeline and answers its ACK (HL7 v2 text):
 * AA once stored (ack_mode stored) or once the run completed (completed); AE when that run failed; AR
 * when it could not be stored. Messages that arrive together, on one connection or several, are stored
 * in one transaction (see MessageStore).
 */
export class MllpReceiver {
  private readonly messages: MessageStore;

  constructor(
    private readonly db: Db,
    queue: Queue,
  ) {
    this.messages = new MessageStore(db, queue);
  }

  async receive(target: TriggerTarget, options: MllpListenOptions, m: Received): Promise<string> {
    let message: Hl7v2Message;
    try {
      message = parseMessage(m.text);
    } catch (e) {
      return ack(UNKNOWN_SENDER, { code: 'AR', text: `Not one HL7 v2 message: ${(e as Error).message}`, error: { code: '100' } });
    }
    let id: string;
    try {
      id = await this.messages.store(target, options.order === 'patient' && m.connection ? { ...m, orderKey: patientKey(message) } : m);
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

  forget(pipelineId: string): void {
    this.messages.forget(pipelineId);
  }

  /** A connection opened (MessageStore.opened: its runs start in the order received, after its sender's before). */
  opened(connection: string, sender: string): void {
    this.messages.opened(connection, sender);
  }

  closed(connection: string): void {
    this.messages.closed(connection);
  }
}

/** Whose messages keep their order under `order: patient`: PID-3's first identifier and its assigning authority ('' without PID). */
function patientKey(message: Hl7v2Message): string {
  const id = get(message, 'PID-3.1');
  return id === undefined ? '' : `${id}^${get(message, 'PID-3.4') ?? ''}`;
}

function ack(received: Hl7v2Message, options: AckOptions): string {
  return serialize(buildAck(received, options));
}
