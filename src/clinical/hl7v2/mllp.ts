import type net from 'node:net';
import { OutboundError, socketErrorInWords } from '@/shared/outbound-error';

/** MLLP framing (HL7 v2 over TCP): <VT> message <FS><CR>. */
const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

export type MllpEncoding = 'utf8' | 'latin1' | 'ascii';

export function mllpFrame(message: string, encoding: MllpEncoding = 'utf8'): Buffer {
  return Buffer.concat([Buffer.from([VT]), Buffer.from(message, encoding), Buffer.from([FS, CR])]);
}

export interface ExchangeOptions {
  encoding: MllpEncoding;
  /** How long to wait for the answer (the ACK). */
  timeoutMs: number;
  /** The largest answer read. */
  maxBytes: number;
}

/**
 * Sends one framed message on a connected socket and waits for one framed answer (the ACK), which it
 * returns unframed. Fails in words when the answer does not come in time, the peer closes the connection,
 * or the answer is too large.
 */
export function mllpExchange(socket: net.Socket, message: string, opts: ExchangeOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null, answer?: string) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (error) reject(error);
      else resolve(answer!);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const all = chunks.length === 1 ? chunk : Buffer.concat(chunks);
      const end = all.indexOf(FS);
      if (end >= 0 && end + 1 < all.length && all[end + 1] === CR) {
        const start = all.indexOf(VT);
        return finish(null, all.subarray(start >= 0 && start < end ? start + 1 : 0, end).toString(opts.encoding));
      }
      if (size > opts.maxBytes) finish(new OutboundError('OUTBOUND_TOO_LARGE', `the answer is larger than ${opts.maxBytes} bytes (OUTBOUND_MAX_BYTES)`));
    };
    const onError = (e: Error) => finish(new OutboundError('OUTBOUND_FAILED', socketErrorInWords(e, 'the receiver')));
    const onClose = () => finish(new OutboundError('OUTBOUND_FAILED', 'the receiver closed the connection without answering'));
    const timer = setTimeout(() => finish(new OutboundError('OUTBOUND_TIMEOUT', `no answer (ACK) within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.write(mllpFrame(message, opts.encoding));
  });
}
