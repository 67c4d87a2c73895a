import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { pipeline, Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { OutboundError, socketErrorInWords } from '@/shared/outbound-error';
import type { OutboundPolicy } from './policy';
import { checkedLookup } from './resolve';

export interface OutboundFetchOptions {
  policy: OutboundPolicy;
  /** Time limit of a whole call: connecting, every redirect, and reading the answer's body to the end. */
  timeoutMs: number;
  /** The largest body read (counted after decompression); reading more fails and closes the connection. */
  maxBytes: number;
  /** Redirects followed before giving up (fetch's own limit is 20). */
  maxRedirects?: number;
}

export type OutboundFetch = typeof fetch;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Dropped when a redirect leaves the origin, as fetch does: they were meant for the first host only. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

/** A URL as shown in errors: no query string (it may carry a token) and no credentials. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** What fetch rejects with when a call fails (a TypeError whose cause says why). */
function fetchFailed(cause: OutboundError): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The OutboundError behind a failed outbound call (fetch's TypeError cause, or the body stream's error). */
export function outboundErrorOf(e: unknown): OutboundError | undefined {
  if (e instanceof OutboundError) return e;
  const cause = (e as { cause?: unknown } | undefined)?.cause;
  return cause instanceof OutboundError ? cause : undefined;
}

/** Kept-alive connections found closed by the server that one call tries past before it fails. */
const MAX_STALE_SOCKETS = 4;

/**
 * A `fetch` for calls that leave the process, under the outbound policy: every connection goes to an
 * address checked after DNS resolution (the checked address is the one connected to, so DNS rebinding
 * cannot swap it) and after every redirect; a whole call, body included, has a time limit and the body a
 * size cap. Built on node:http with keep-alive agents. Same signature and behaviour as the global fetch
 * (Request/Response objects, `redirect` modes, abort signals, gzip/deflate/br), with failures explained in
 * the TypeError's `cause` (an OutboundError).
 */
export function createOutboundFetch(options: OutboundFetchOptions): OutboundFetch {
  const { policy, timeoutMs, maxBytes } = options;
  const maxRedirects = options.maxRedirects ?? 20;
  const lookup = checkedLookup(policy);
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  function send(url: URL, method: string, headers: Headers, payload: Buffer | undefined, signal: AbortSignal, attempt = 0): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const literal = net.isIP(host) !== 0;
      // an address in the URL never reaches a DNS lookup: check it here
      const refused = literal ? policy.refusal(host) : null;
      if (refused) return reject(new OutboundError('OUTBOUND_REFUSED', refused));
      const outgoing: Record<string, string> = {};
      headers.forEach((value, name) => (outgoing[name] = value));
      outgoing.accept ??= '*/*';
      outgoing['accept-encoding'] ??= 'gzip, deflate, br';
      outgoing['user-agent'] ??= 'Clinflow';
      if (payload) outgoing['content-length'] = String(payload.length);
      else if (!['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method)) outgoing['content-length'] = '0';
      const secure = url.protocol === 'https:';
      const req = (secure ? https : http).request({
        hostname: host,
        port: url.port ? Number(url.port) : secure ? 443 : 80,
        path: `${url.pathname}${url.search}`,
        method,
        headers: outgoing,
        agent: secure ? agents.https : agents.http,
        lookup: literal || policy.allowsName(host) ? undefined : lookup,
        signal,
      });
      req.once('response', resolve);
      req.once('error', (e: NodeJS.ErrnoException) => {
        // a kept-alive connection the server closed while it sat idle, its close not yet seen here (a busy process
        // reads it late): the request met a closed socket, so it is sent again on another connection, as Node's
        // documentation of `reusedSocket` advises. Each such socket is gone after its failure; a few at most are tried.
        const stale = req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE') && attempt < MAX_STALE_SOCKETS && !signal.aborted;
        if (stale) resolve(send(url, method, headers, payload, signal, attempt + 1));
        else reject(e);
      });
      req.end(payload);
    });
  }

  function toResponse(res: http.IncomingMessage, url: URL, method: string, redirected: boolean, signal: AbortSignal, stopped: () => unknown): Response {
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 599) throw new OutboundError('OUTBOUND_FAILED', `${method} ${shown(url)} answered with an invalid status (${status})`);
    const headers = new Headers();
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
      try {
        headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      } catch {
        // a header value fetch cannot hold is left out, as fetch itself would fail on it
      }
    }
    const declared = Number(res.headers['content-length']);
    const tooLarge = (what: string) =>
      new OutboundError(
        'OUTBOUND_TOO_LARGE',
        `the answer of ${method} ${shown(url)} ${what} more than the ${maxBytes} bytes allowed (OUTBOUND_MAX_BYTES): it was not read`,
      );
    if (declared > maxBytes) throw tooLarge(`announces ${declared} bytes,`);
    let body: ReadableStream<Uint8Array> | null = null;
    if (method === 'HEAD' || NULL_BODY.has(status)) {
      res.resume();
    } else {
      const coding = String(res.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase();
      const decoder =
        coding === 'gzip' || coding === 'x-gzip'
          ? zlib.createGunzip()
          : coding === 'deflate'
            ? zlib.createInflate()
            : coding === 'br'
              ? zlib.createBrotliDecompress()
              : undefined;
      let size = 0;
      const limiter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) done(tooLarge('holds'));
          else done(null, chunk);
        },
      });
      // the time limit covers reading the body too; closing the limiter closes the connection
      const onAbort = () => limiter.destroy(stopped() as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      const stages = decoder ? [res, decoder, limiter] : [res, limiter];
      // a web response body, a zlib stream and a Transform: @types/node's pipeline overloads take no such mixed list
      pipeline(stages as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream], () => signal.removeEventListener('abort', onAbort));
      body = Readable.toWeb(limiter) as unknown as ReadableStream<Uint8Array>;
    }
    const response = new Response(body, { status, statusText: res.statusMessage ?? '', headers });
    Object.defineProperty(response, 'url', { value: url.href });
    Object.defineProperty(response, 'redirected', { value: redirected });
    return response;
  }

  async function outboundFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([request.signal, deadline]);
    let url = new URL(request.url);
    let method = request.method;
    const headers = new Headers(request.headers);
    let payload: Buffer | undefined = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const target = () => `${method} ${shown(url)}`;
    /** The error to fail with: the caller's abort reason, the time limit, or what went wrong, in words. */
    const stopped = (e?: unknown): unknown => {
      if (request.signal.aborted) return request.signal.reason;
      if (deadline.aborted) return new OutboundError('OUTBOUND_TIMEOUT', `${target()} got no full answer within ${timeoutMs} ms (OUTBOUND_TIMEOUT_MS)`);
      return e instanceof OutboundError ? e : new OutboundError('OUTBOUND_FAILED', socketErrorInWords(e, target()));
    };
    const fail = (e?: unknown): unknown => {
      const why = stopped(e);
      return why instanceof OutboundError ? fetchFailed(why) : why;
    };

    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw fetchFailed(new OutboundError('OUTBOUND_FAILED', `only http and https addresses can be called, not ${url.protocol}`));
      }
      let res: http.IncomingMessage;
      try {
        res = await send(url, method, headers, payload, signal);
      } catch (e) {
        throw fail(e);
      }
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location !== undefined && request.redirect !== 'manual') {
        res.destroy();
        if (request.redirect === 'error') {
          throw fetchFailed(new OutboundError('OUTBOUND_FAILED', `${target()} answered a redirect (${status}) and redirects are not followed`));
        }
        if (hop >= maxRedirects) throw fetchFailed(new OutboundError('OUTBOUND_FAILED', `${target()}: more than ${maxRedirects} redirects`));
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw fetchFailed(new OutboundError('OUTBOUND_FAILED', `${target()} redirected to an invalid address`));
        }
        if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          payload = undefined;
          for (const h of BODY_HEADERS) headers.delete(h);
        }
        if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
        url = next; // checked like the first address when the next request connects
        continue;
      }
      try {
        return toResponse(res, url, method, hop > 0, signal, stopped);
      } catch (e) {
        res.destroy();
        throw fail(e);
      }
    }
  }

  return outboundFetch as OutboundFetch;
}
