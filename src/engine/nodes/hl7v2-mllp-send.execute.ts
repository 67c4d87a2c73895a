import { get, Hl7v2Error, parseMessage, readMessage, serialize, type Hl7v2Message } from '@/clinical/hl7v2';
import { OutboundError } from '@/shared/outbound-error';
import { mllpExchange, type MllpEncoding } from '@/clinical/hl7v2/mllp';
import { NodeError } from '../node-error';
import { implementNode, type ConnectorHandle } from '../node-type';
import { hl7v2MllpSend } from './hl7v2-mllp-send';

const DEFAULT_ACK_TIMEOUT_MS = 30_000;
/** An ACK is a few hundred bytes; anything far larger is not one. */
const MAX_ACK_BYTES = 1024 * 1024;
const ACCEPTED = new Set(['AA', 'CA']);

/** The message as it goes on the wire (CR segment ends), checked, whichever form it came in. */
function outgoing(value: unknown): { text: string; message: Hl7v2Message } {
  try {
    const message = typeof value === 'string' ? parseMessage(value) : readMessage(value);
    return { text: serialize(message), message };
  } catch (e) {
    if (e instanceof Hl7v2Error) throw new NodeError('HL7_INVALID', `The input is not an HL7 v2 message: ${e.message}`);
    throw e;
  }
}

function encodingOf(connector: ConnectorHandle): MllpEncoding {
  const raw = String(connector.config.encoding ?? 'utf-8')
    .toLowerCase()
    .replace(/[-_]/g, '');
  if (raw === 'latin1' || raw === 'iso88591') return 'latin1';
  if (raw === 'ascii' || raw === 'usascii') return 'ascii';
  return 'utf8';
}

/** What a negative ACK says: MSA-3, and the ERR segment's condition and text when there is one. */
function nakText(ack: Hl7v2Message): string {
  const parts = [get(ack, 'MSA-3')].filter(Boolean) as string[];
  const err = ack.segments.find((s) => s.id === 'ERR');
  if (err) {
    // v2.5+: ERR-3 condition, ERR-8 user message; before: ERR-1 (ELD)
    const words = [get(ack, 'ERR-3.1'), get(ack, 'ERR-3.2'), get(ack, 'ERR-8'), get(ack, 'ERR-1.4.2')].filter(Boolean);
    if (words.length) parts.push(`(ERR: ${words.join(' ')})`);
  }
  return parts.join(' ') || 'no text given';
}

export const hl7v2MllpSendNode = implementNode(hl7v2MllpSend, {
  async execute(ctx, inputs, config) {
    if (!config.connector) throw new NodeError('CONNECTOR_REQUIRED', 'Set `connector` to the hl7-mllp connector of the receiving system.');
    const { text, message } = outgoing(inputs.message);
    const connector = await ctx.services.connector(config.connector, 'hl7-mllp');
    const host = String(connector.config.host ?? '');
    const port = Number(connector.config.port);
    if (!host || !Number.isInteger(port)) throw new NodeError('CONNECTOR_REQUIRED', `Connector "${connector.name}" has no host and port.`);
    const where = `${host}:${port}`;
    if (ctx.testMode) {
      ctx.log('info', `test mode: would send ${message.message_type}^${message.trigger_event} ${message.control_id} to ${where}`);
      return { outputs: { ack: { simulated: true, connector: connector.name, endpoint: where, message: text } }, simulated: true };
    }
    const timeoutMs = config.ack_timeout_ms ?? (Number(connector.config.ack_timeout_ms) || DEFAULT_ACK_TIMEOUT_MS);
    const socket = await ctx.services.connect({ host, port, tls: connector.config.tls === true });
    const onAbort = () => socket.destroy();
    ctx.signal.addEventListener('abort', onAbort);
    let answer: string;
    try {
      answer = await mllpExchange(socket, text, { encoding: encodingOf(connector), timeoutMs, maxBytes: MAX_ACK_BYTES });
    } catch (e) {
      if (ctx.signal.aborted) throw new NodeError('CANCELLED', `Sending to ${where} was aborted: the execution was cancelled or timed out.`);
      if (e instanceof OutboundError && e.code === 'OUTBOUND_TIMEOUT') throw new NodeError('HL7_ACK_TIMEOUT', `${where} sent no ACK within ${timeoutMs} ms.`);
      if (e instanceof OutboundError) throw new NodeError(e.code, `${where}: ${e.message}`);
      throw e;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      socket.end();
    }
    let ack: Hl7v2Message;
    try {
      ack = parseMessage(answer);
    } catch (e) {
      if (e instanceof Hl7v2Error) throw new NodeError('HL7_INVALID', `${where} answered with something that is not an HL7 v2 ACK: ${e.message}`);
      throw e;
    }
    const code = get(ack, 'MSA-1') ?? '';
    if (get(ack, 'MSA-2') !== message.control_id)
      ctx.log('warn', `the ACK's MSA-2 "${get(ack, 'MSA-2') ?? ''}" is not the message's control id ${message.control_id}`);
    if (!ACCEPTED.has(code)) throw new NodeError('HL7_NAK', `HL7 NAK from ${where}: ${code || 'no MSA-1'}: ${nakText(ack)}`);
    ctx.log('info', `${message.control_id} → ${where}: ${code}`);
    return { outputs: { ack } };
  },
});
