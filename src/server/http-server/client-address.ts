import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

export type TrustFn = (address: string, hop: number) => boolean;

/** TRUSTED_PROXIES read once; an entry proxy-addr cannot read stops the start with its reason. */
export function compileTrust(entries: string[]): TrustFn {
  if (entries.length === 0) return () => false;
  try {
    return proxyAddr.compile(entries);
  } catch (e) {
    throw new Error(`TRUSTED_PROXIES: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The client's address: the connection's own, or — only when the connection comes from a trusted proxy —
 * the nearest address in X-Forwarded-For that is not itself a trusted proxy. Anything else a client writes
 * in X-Forwarded-For or X-Real-IP is not believed.
 */
export function clientAddress(req: IncomingMessage, trust: TrustFn): string {
  if (!req.socket.remoteAddress) return 'unknown';
  return proxyAddr(req, trust);
}

/**
 * What the rest of the service reads as the client's address (the rate limits by address, better-auth's
 * sign-in limit): X-Forwarded-For replaced by the one address worked out above, X-Real-IP dropped. Next,
 * which the UI's requests go through, keeps a forwarded-for header that is already set.
 */
export function pinClientAddress(req: IncomingMessage, trust: TrustFn): void {
  req.headers['x-forwarded-for'] = clientAddress(req, trust);
  delete req.headers['x-real-ip'];
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'x-forwarded-for' || name === 'x-real-ip') raw.splice(i, 2);
  }
  raw.push('x-forwarded-for', req.headers['x-forwarded-for']);
}
