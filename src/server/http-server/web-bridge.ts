import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { MAX_BODY_BYTES } from '@/server/api/body';

/**
 * Node's request and response on one side, the Fetch API's `Request` and `Response` our edge and handlers
 * are written against on the other: what Next's route handlers do for us, without Next's routing, rendering
 * and per-request bookkeeping in between.
 */

/** The request as a `Request`: headers as sent, the body streamed (never read whole here), aborted when the client goes. */
export function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const controller = new AbortController();
  // the response closing before it was finished means the client went away
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
    res.once('finish', () => {
      if (!req.complete) discardRest(req);
    });
  }
  return new Request(url, init);
}

/** How much of a body left unread by the answer is read and dropped, and for how long, before the connection is cut. */
const DISCARD_BYTES = 8 * MAX_BODY_BYTES;
const DISCARD_MS = 2_000;

/**
 * The rest of a request body nobody read (answered early: an unknown path, no key, a wrong method, a rate
 * limit), read and dropped once the answer is out, so the connection can carry the client's next request.
 * Node does this itself for a body nobody touched, but the web stream above counts as a reader: it takes
 * what fits in its buffer and pauses the socket. Left so, a keep-alive client that had sent its whole body
 * sent its next request on a connection that was no longer read, until Node's idle timeout destroyed the
 * socket under it (ECONNRESET, nothing logged; issue 26). Past the bound — a client still sending after
 * 8 × MAX_BODY_BYTES or two seconds, the same bound as a refused body's (api/body.ts) — the connection is cut.
 */
function discardRest(req: IncomingMessage): void {
  let dropped = 0;
  const cut = () => req.socket?.destroy();
  const timer = setTimeout(cut, DISCARD_MS).unref();
  // the web stream's listener: its queue, which nobody reads, must not grow
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > DISCARD_BYTES) cut();
  });
  // past its end the connection carries the next request: never cut it then
  const done = () => clearTimeout(timer);
  req.once('end', done).once('close', done);
  req.resume();
}

/**
 * Sends a `Response`: a body of known length in one write, a stream (Server-Sent Events) chunk by chunk as it
 * comes, with back-pressure; a client that goes away cancels the stream, so its producer learns of it.
 */
export async function sendResponse(res: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (!response.body || method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  if (!streamed(response)) {
    const bytes = Buffer.from(await response.arrayBuffer());
    res.setHeader('content-length', bytes.byteLength);
    res.end(bytes);
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const gone = () => void reader.cancel().catch(() => undefined);
  res.once('close', gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    res.end();
  } catch {
    // the producer failed mid-stream, after the status went out: all that is left is to end the connection
    res.destroy();
  } finally {
    res.off('close', gone);
  }
}

/** Event streams, and bodies of unknown length, go out as they are produced. */
function streamed(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return type.startsWith('text/event-stream') || (!response.headers.has('content-length') && !type.includes('json'));
}
