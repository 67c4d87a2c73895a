/**
 * A plain HTTP exchange: what a node sends and what it reads back, without web Request/Response objects and body
 * streams. The host lends it to nodes as `NodeServices.request`, under the same outbound policy, time limit, size cap
 * and retries as `NodeServices.fetch` (src/server/outbound/request.ts); it exists because wrapping node:http in web
 * objects cost a feed message's FHIR write about three times the CPU of the exchange itself (bench/README.md).
 */
export interface HttpExchangeRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  /** Sent as it is (a string as UTF-8). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** As fetch's `redirect`: follow (default), manual (the redirect is the answer) or error. */
  redirect?: 'follow' | 'manual' | 'error';
}

export interface HttpExchangeAnswer {
  status: number;
  statusText: string;
  /** The address that answered (after redirects). */
  url: string;
  redirected: boolean;
  /** Header names in lower case; repeated headers joined with ", " (set-cookie too, as Headers.get does). */
  headers: Record<string, string>;
  /** The body as read, decompressed (gzip, deflate, br). */
  body: Buffer;
}

export type HttpExchange = (request: HttpExchangeRequest) => Promise<HttpExchangeAnswer>;

/**
 * The same exchange over a `fetch` (for hosts that only have one, and tests that hand nodes a fetch): rejects as that
 * fetch does.
 */
export function exchangeViaFetch(fetchFn: typeof fetch): HttpExchange {
  return async (request) => {
    const response = await fetchFn(request.url, {
      method: request.method,
      ...(request.headers ? { headers: request.headers } : {}),
      // a Uint8Array is a BodyInit at run time; @types/node's BodyInit and the DOM's disagree on its buffer type
      ...(request.body !== undefined ? { body: request.body as BodyInit } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      redirect: request.redirect ?? 'follow',
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, statusText: response.statusText, url: response.url, redirected: response.redirected, headers, body };
  };
}
