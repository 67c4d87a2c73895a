import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import { Deadline } from '@/shared/deadline';
import { OutboundError, socketErrorInWords } from '@/shared/outbound-error';
import type { OutboundPolicy } from './policy';
import { checkedLookup } from './resolve';

/**
 * What both outbound HTTP paths share (the web `fetch` of fetch.ts and the plain exchange of request.ts): node:http
 * with keep-alive agents, every connection to an address checked after DNS resolution (the checked address is the one
 * connected to, so DNS rebinding cannot swap it) and after every redirect, one time limit for a whole call (connecting,
 * every redirect, reading the body), a size cap on the body, and a retry on another connection when a kept-alive
 * socket turns out closed by the server.
 */
export interface TransportOptions {
  policy: OutboundPolicy;
  /** Time limit of a whole call: connecting, every redirect, and reading the answer's body to the end. */
  timeoutMs: number;
  /** The largest body read (counted after decompression); reading more fails and closes the connection. */
  maxBytes: number;
  /** Redirects followed before giving up (fetch's own limit is 20). */
  maxRedirects?: number;
}

/** One call: headers with lower-case names. */
export interface Call {
  url: URL;
  method: string;
  headers: Record<string, string>;
  payload: Buffer | undefined;
  redirect: 'follow' | 'manual' | 'error';
}

/** A call's time limit joined with its caller's signal, and the words for why it stopped. */
export interface Guard {
  signal: AbortSignal;
  /** The error to fail with: the caller's abort reason, the time limit, or what went wrong (an OutboundError). */
  stopped(e: unknown, target: string): unknown;
  /** The call is over (answer read, or failed): the time limit stops and the caller's signal is let go. */
  release(): void;
}

/** The answer's head, its body not read yet. */
export interface Sent {
  res: http.IncomingMessage;
  url: URL;
  method: string;
  redirected: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const NULL_BODY = new Set([204, 205, 304]);
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Dropped when a redirect leaves the origin, as fetch does: they were meant for the first host only. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
/** Kept-alive connections found closed by the server that one call tries past before it fails. */
const MAX_STALE_SOCKETS = 4;

/** A URL as shown in errors: no query string (it may carry a token) and no credentials. */
export function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export class Transport {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  private readonly policy: OutboundPolicy;
  private readonly maxRedirects: number;
  private readonly lookup: net.LookupFunction;
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  constructor(options: TransportOptions) {
    this.policy = options.policy;
    this.timeoutMs = options.timeoutMs;
    this.maxBytes = options.maxBytes;
    this.maxRedirects = options.maxRedirects ?? 20;
    this.lookup = checkedLookup(options.policy);
  }

  guard(caller: AbortSignal | undefined): Guard {
    const deadline = new Deadline(this.timeoutMs, caller);
    const timeoutMs = this.timeoutMs;
    return {
      signal: deadline.signal,
      release: () => deadline.release(),
      stopped(e, target) {
        if (caller?.aborted) return caller.reason;
        if (deadline.timedOut) return new OutboundError('OUTBOUND_TIMEOUT', `${target} got no full answer within ${timeoutMs} ms (OUTBOUND_TIMEOUT_MS)`);
        return e instanceof OutboundError ? e : new OutboundError('OUTBOUND_FAILED', socketErrorInWords(e, target));
      },
    };
  }

  /** Sends the call and follows its redirects as asked; rejects with what `guard.stopped` gives (or an OutboundError). */
  async exchange(call: Call, guard: Guard): Promise<Sent> {
    let { url, method, payload } = call;
    const headers = { ...call.headers };
    const target = () => `${method} ${shown(url)}`;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new OutboundError('OUTBOUND_FAILED', `only http and https addresses can be called, not ${url.protocol}`);
      }
      let res: http.IncomingMessage;
      try {
        res = await this.send(url, method, headers, payload, guard.signal);
      } catch (e) {
        throw guard.stopped(e, target());
      }
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (!REDIRECTS.has(status) || location === undefined || call.redirect === 'manual') {
        if (status < 200 || status > 599) {
          res.destroy();
          throw new OutboundError('OUTBOUND_FAILED', `${target()} answered with an invalid status (${status})`);
        }
        return { res, url, method, redirected: hop > 0 };
      }
      res.destroy();
      if (call.redirect === 'error') throw new OutboundError('OUTBOUND_FAILED', `${target()} answered a redirect (${status}) and redirects are not followed`);
      if (hop >= this.maxRedirects) throw new OutboundError('OUTBOUND_FAILED', `${target()}: more than ${this.maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundError('OUTBOUND_FAILED', `${target()} redirected to an invalid address`);
      }
      if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        payload = undefined;
        for (const h of BODY_HEADERS) delete headers[h];
      }
      if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
      url = next; // checked like the first address when the next request connects
    }
  }

  /** The error for a body over the cap. */
  tooLarge(sent: Sent, what: string): OutboundError {
    return new OutboundError(
      'OUTBOUND_TOO_LARGE',
      `the answer of ${sent.method} ${shown(sent.url)} ${what} more than the ${this.maxBytes} bytes allowed (OUTBOUND_MAX_BYTES): it was not read`,
    );
  }

  /**
   * What reads the body: undefined when there is none (HEAD, 204, 205, 304: the socket is freed), else the decoder of
   * its content-encoding, null when it has none. Throws when the announced length is over the cap.
   */
  decoder(sent: Sent): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null | undefined {
    const { res } = sent;
    const declared = Number(res.headers['content-length']);
    if (declared > this.maxBytes) throw this.tooLarge(sent, `announces ${declared} bytes,`);
    if (sent.method === 'HEAD' || NULL_BODY.has(res.statusCode ?? 0)) {
      res.resume();
      return undefined;
    }
    const coding = String(res.headers['content-encoding'] ?? '')
      .trim()
      .toLowerCase();
    if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip();
    if (coding === 'deflate') return zlib.createInflate();
    if (coding === 'br') return zlib.createBrotliDecompress();
    return null;
  }

  private send(url: URL, method: string, headers: Record<string, string>, payload: Buffer | undefined, signal: AbortSignal, attempt = 0) {
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const literal = net.isIP(host) !== 0;
      // an address in the URL never reaches a DNS lookup: check it here
      const refused = literal ? this.policy.refusal(host) : null;
      if (refused) return reject(new OutboundError('OUTBOUND_REFUSED', refused));
      const outgoing: Record<string, string> = { ...headers };
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
        agent: secure ? this.agents.https : this.agents.http,
        lookup: literal || this.policy.allowsName(host) ? undefined : this.lookup,
        signal,
      });
      req.once('response', resolve);
      req.once('error', (e: NodeJS.ErrnoException) => {
        // a kept-alive connection the server closed while it sat idle, its close not yet seen here (a busy process
        // reads it late): the request met a closed socket, so it is sent again on another connection, as Node's
        // documentation of `reusedSocket` advises. Each such socket is gone after its failure; a few at most are tried.
        const stale = req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE') && attempt < MAX_STALE_SOCKETS && !signal.aborted;
        if (stale) resolve(this.send(url, method, headers, payload, signal, attempt + 1));
        else reject(e);
      });
      req.end(payload);
    });
  }
}
