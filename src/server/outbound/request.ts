import type { HttpExchange, HttpExchangeAnswer } from '@/shared/http-exchange';
import { OutboundError } from '@/shared/outbound-error';
import { type Call, type Guard, type Sent, shown, type Transport } from './transport';

/**
 * The plain HTTP exchange nodes get as `services.request`: the same transport as the outbound fetch (addresses checked
 * after DNS and every redirect, one time limit for the whole call, the body's size cap, stale kept-alive sockets
 * retried), the answer read whole into a Buffer — no Request, Response, Headers or web streams. Rejects with an
 * OutboundError saying why (refused, time limit, too large, failed), or with the caller's abort reason.
 */
export function createOutboundExchange(transport: Transport): HttpExchange {
  return async (request) => {
    if (request.signal?.aborted) throw request.signal.reason;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new OutboundError('OUTBOUND_FAILED', `"${request.url}" is not a valid URL`);
    }
    const body = request.body;
    const call: Call = {
      url,
      method: request.method.toUpperCase(),
      headers,
      payload:
        body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      redirect: request.redirect ?? 'follow',
    };
    const guard = transport.guard(request.signal);
    try {
      const sent = await transport.exchange(call, guard);
      return answerOf(sent, await readBody(transport, sent, guard));
    } finally {
      guard.release();
    }
  };
}

function answerOf(sent: Sent, body: Buffer): HttpExchangeAnswer {
  const headers: Record<string, string> = {};
  const raw = sent.res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: sent.res.statusCode!, statusText: sent.res.statusMessage ?? '', url: sent.url.href, redirected: sent.redirected, headers, body };
}

/** The whole body, decompressed, within the size cap and the call's time limit; the connection is closed on failure. */
function readBody(transport: Transport, sent: Sent, guard: Guard): Promise<Buffer> {
  const { res } = sent;
  const target = `${sent.method} ${shown(sent.url)}`;
  let decoder;
  try {
    decoder = transport.decoder(sent);
  } catch (e) {
    res.destroy();
    return Promise.reject(e);
  }
  if (decoder === undefined) return Promise.resolve(Buffer.alloc(0));
  const source = decoder ?? res;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (e: unknown, body?: Buffer) => {
      if (done) return;
      done = true;
      guard.signal.removeEventListener('abort', onAbort);
      if (body) return resolve(body);
      res.destroy();
      decoder?.destroy();
      reject(e);
    };
    const onAbort = () => finish(guard.stopped(undefined, target));
    guard.signal.addEventListener('abort', onAbort, { once: true });
    if (guard.signal.aborted) return onAbort();
    const failed = (e: unknown) => finish(guard.stopped(e, target));
    res.once('error', failed);
    if (decoder) {
      decoder.once('error', failed);
      res.pipe(decoder);
    }
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > transport.maxBytes) finish(transport.tooLarge(sent, 'holds'));
      else chunks.push(chunk);
    });
    source.once('end', () => finish(undefined, Buffer.concat(chunks, size)));
    // a connection closed before the body's end: node:http reports it as an 'aborted' error on the response
    res.once('close', () => !res.complete && failed(new OutboundError('OUTBOUND_FAILED', `${target}: the connection closed before the answer's end`)));
  });
}
