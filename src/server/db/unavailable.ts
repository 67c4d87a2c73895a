import { AppError } from '@/server/errors';

/**
 * Whether an error means the database cannot be reached right now (connection refused, reset or timed out,
 * the server shutting down or starting up) rather than a fault of the request or of our code: such a request is
 * answered 503 SERVICE_UNAVAILABLE with Retry-After, and the same request succeeds once the database is back
 * (postgres.js opens new connections on the next query).
 */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** postgres.js's own codes for a connection that went away or never came. */
const DRIVER = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now). */
const SQLSTATE = /^(08\w{3}|57P0[123])$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  return hasCode(error, (code) => NETWORK.has(code) || DRIVER.has(code) || SQLSTATE.test(code));
}

/** A pooled connection the server ended (it restarted): the next statement on a fresh connection may well succeed. */
const STALE = new Set(['57P01', '57P02', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE']);

export function isStaleConnection(error: unknown): boolean {
  return hasCode(error, (code) => STALE.has(code));
}

/**
 * Runs an idempotent read again while it fails on connections the database ended when it restarted (each
 * fails once, quickly; a pool holds at most `attempts` of them), so the first requests after a restart
 * are answered instead of refused.
 */
export async function retryOnStaleConnection<T>(read: () => Promise<T>, attempts = 10): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await read();
    } catch (e) {
      if (i >= attempts || !isStaleConnection(e)) throw e;
    }
  }
}

function hasCode(error: unknown, test: (code: string) => boolean): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && test(code)) return true;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => hasCode(x, test))) return true;
  }
  return false;
}

/** What a request gets while the database is away. */
export function databaseUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The service is starting or its database is unavailable; try again shortly.');
}
