export type OutboundErrorCode =
  /** The address is not one outbound calls may reach (policy). */
  | 'OUTBOUND_REFUSED'
  /** No full answer within the time limit. */
  | 'OUTBOUND_TIMEOUT'
  /** The answer is larger than the size cap. */
  | 'OUTBOUND_TOO_LARGE'
  /** Anything else: DNS, connection, TLS, protocol, redirects. */
  | 'OUTBOUND_FAILED';

/** Why an outbound call did not happen or did not finish, in words a pipeline author can act on. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** The words for a socket or DNS error code (ECONNREFUSED, ENOTFOUND…), saying where it happened. */
export function socketErrorInWords(e: unknown, where: string): string {
  if (e instanceof OutboundError) return e.message;
  const err = e as NodeJS.ErrnoException & { reason?: string };
  switch (err?.code) {
    case 'ECONNREFUSED':
      return `${where} refused the connection: nothing listens on that port`;
    case 'ECONNRESET':
      return `${where} closed the connection abruptly`;
    case 'ETIMEDOUT':
      return `${where} did not answer in time`;
    case 'EHOSTUNREACH':
      return `${where} cannot be reached (no route to the host)`;
    case 'ENETUNREACH':
      return `${where} cannot be reached (network unreachable)`;
    case 'ENOTFOUND':
      return `${where} does not resolve: no such name in DNS`;
    case 'EAI_AGAIN':
      return `the DNS lookup of ${where} failed for now (the DNS server did not answer)`;
    case 'EPIPE':
      return `${where} closed the connection while data was being sent`;
    default:
      return `${where}: ${err?.message ?? String(e)}`;
  }
}
