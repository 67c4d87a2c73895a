import { env } from '@/env';
import { AppError } from '@/server/errors';

/** The largest request body the API reads (MAX_BODY_BYTES, 2 MiB by default): JSON routes, tRPC, webhooks, sign-in alike. */
export const MAX_BODY_BYTES = env.MAX_BODY_BYTES;

export interface LimitedRequest {
  req: Request;
  /** The 413 once reading the body was refused (the rest of it was dropped, or cut off: the connection must close). */
  refusal(): AppError | undefined;
}

/**
 * The request as a handler sees it: its body can be read only up to `limit` bytes. Reading a larger one
 * fails with 413 PAYLOAD_TOO_LARGE when Content-Length says so (nothing is kept), else as soon as the
 * bytes read pass the limit — never whole into memory; the rest is read and dropped first (see `drain`). Whoever reads it (our JSON and webhook
 * routes, tRPC, better-auth) meets the same error. A body within its declared length is left as it is:
 * the HTTP parser never delivers more than Content-Length.
 */
export function limitBody(req: Request, limit = MAX_BODY_BYTES): LimitedRequest {
  let refusal: AppError | undefined;
  const length = req.headers.get('content-length');
  const declared = length === null ? NaN : Number(length);
  if (!req.body || declared <= limit) return { req, refusal: () => undefined };
  const tooLarge = () => (refusal = new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${limit} bytes.`));
  const reader = req.body.getReader();
  let size = 0;
  // refused only once the client has stopped sending (or the drain gave up): closing the connection
  // under a client still writing makes it see a broken pipe instead of the 413
  const refuse = async (c: ReadableStreamDefaultController<Uint8Array>) => {
    const error = tooLarge();
    await drain(reader, limit);
    c.error(error);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (declared > limit) return refuse(c);
      const { done, value } = await reader.read();
      if (done) return c.close();
      size += value.byteLength;
      if (size > limit) return refuse(c);
      c.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const limited = new Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal, duplex: 'half' } as RequestInit);
  return { req: limited, refusal: () => refusal };
}

/** A JSON request body; an empty body (deploy, undeploy) counts as `{}`. */
export async function readJsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === '') return {};
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the request body as application/json (got "${type || 'no content type'}").`);
  }
  return parseJson(text);
}

/** Nesting no request needs: deeper JSON would only make validation and storage recurse that deep. */
export const MAX_JSON_DEPTH = 128;

/** JSON text parsed, or 400 INVALID_JSON (not JSON) or JSON_TOO_DEEP (objects and arrays nested past MAX_JSON_DEPTH). */
export function parseJson(text: string): unknown {
  if (depthOf(text) > MAX_JSON_DEPTH) {
    throw new AppError('JSON_TOO_DEEP', `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/** The deepest nesting of [ and { in JSON text, outside strings: one pass, no recursion. */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/**
 * The rest of a body that is too large, read and dropped (never kept) up to a bound, so the client, still
 * sending, reads the 413 instead of a broken pipe; past the bound, or after two seconds, it is cut off.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<void> {
  const until = Date.now() + 2_000;
  let dropped = 0;
  while (dropped < 8 * limit && Date.now() < until) {
    const { done, value } = await reader.read();
    if (done) return;
    dropped += value.byteLength;
  }
  await reader.cancel().catch(() => {});
}
