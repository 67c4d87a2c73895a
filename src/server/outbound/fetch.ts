import { pipeline, Readable, Transform } from 'node:stream';
import { OutboundError } from '@/shared/outbound-error';
import { type Call, shown, Transport, type TransportOptions } from './transport';

export type OutboundFetchOptions = TransportOptions;

export type OutboundFetch = typeof fetch;

/** What fetch rejects with when a call fails (a TypeError whose cause says why). */
function fetchFailed(cause: OutboundError): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The OutboundError behind a failed outbound call (fetch's TypeError cause, the body stream's error, or itself). */
export function outboundErrorOf(e: unknown): OutboundError | undefined {
  if (e instanceof OutboundError) return e;
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  return cause instanceof OutboundError ? cause : undefined;
}

/**
 * A `fetch` for calls that leave the process, under the outbound policy (see Transport: addresses checked after DNS
 * and after every redirect, a time limit for the whole call, a size cap on the body). Same signature and behaviour
 * as the global fetch (Request/Response objects, `redirect` modes, abort signals, gzip/deflate/br), with failures
 * explained in the TypeError's `cause` (an OutboundError). Nodes that need no web objects use the plain exchange of
 * request.ts instead, on the same transport.
 */
export function createOutboundFetch(options: OutboundFetchOptions | Transport): OutboundFetch {
  const transport = options instanceof Transport ? options : new Transport(options);

  async function outboundFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    // not released when reading the request's body fails: it then ends itself when the time is up
    const guard = transport.guard(request.signal);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const call: Call = {
      url: new URL(request.url),
      method: request.method,
      headers,
      payload: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
      redirect: request.redirect,
    };
    const fail = (e: unknown) => {
      guard.release();
      return e instanceof OutboundError ? fetchFailed(e) : e;
    };
    let sent;
    try {
      sent = await transport.exchange(call, guard);
    } catch (e) {
      throw fail(e);
    }
    const { res, url, method } = sent;
    const target = `${method} ${shown(url)}`;
    const responseHeaders = new Headers();
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
      try {
        responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      } catch {
        // a header value fetch cannot hold is left out, as fetch itself would fail on it
      }
    }
    let body: ReadableStream<Uint8Array> | null = null;
    try {
      const decoder = transport.decoder(sent);
      if (decoder !== undefined) {
        let size = 0;
        const limiter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            if (size > transport.maxBytes) done(transport.tooLarge(sent, 'holds'));
            else done(null, chunk);
          },
        });
        // the time limit covers reading the body too; closing the limiter closes the connection
        const onAbort = () => limiter.destroy(guard.stopped(undefined, target) as Error);
        guard.signal.addEventListener('abort', onAbort, { once: true });
        const stages = decoder ? [res, decoder, limiter] : [res, limiter];
        // an IncomingMessage, a zlib stream and a Transform: @types/node's pipeline overloads take no such mixed list
        pipeline(stages as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream], () => {
          guard.signal.removeEventListener('abort', onAbort);
          guard.release();
        });
        // Node's web ReadableStream (stream/web) is declared apart from the DOM lib's one that Response takes
        body = Readable.toWeb(limiter) as unknown as ReadableStream<Uint8Array>;
      } else guard.release();
    } catch (e) {
      res.destroy();
      throw fail(e);
    }
    const response = new Response(body, { status: res.statusCode!, statusText: res.statusMessage ?? '', headers: responseHeaders });
    Object.defineProperty(response, 'url', { value: url.href });
    Object.defineProperty(response, 'redirected', { value: sent.redirected });
    return response;
  }

  return outboundFetch as OutboundFetch;
}
