import dns from 'node:dns';
import net from 'node:net';
import { OutboundError, socketErrorInWords } from '@/shared/outbound-error';
import { canonicalHost, ipOf, type OutboundPolicy } from './policy';

export interface ResolvedHost {
  /** The host as written, canonical (lower case, IPv4 in dotted decimal). */
  host: string;
  /** The addresses to connect to, every one of them checked against the policy (unless allowedByName). */
  addresses: { address: string; family: 4 | 6 }[];
  /** The host was an IP address: nothing was looked up. */
  literal: boolean;
  /** OUTBOUND_ALLOW names the host, so its addresses were not checked. */
  allowedByName: boolean;
}

/** Checks every address a host name resolved to; one refused address refuses the host. */
function checkAll(policy: OutboundPolicy, host: string, addresses: dns.LookupAddress[]): void {
  for (const a of addresses) policy.checkAddress(a.address, host);
}

/**
 * Resolves `host` and checks the result against the policy, before any connection: an IP address is
 * checked as it is, a name through DNS (every address it resolves to must be allowed) unless OUTBOUND_ALLOW
 * names it. Throws OutboundError (OUTBOUND_REFUSED or OUTBOUND_FAILED, in words).
 */
export async function resolveHost(host: string, policy: OutboundPolicy): Promise<ResolvedHost> {
  const canonical = canonicalHost(host);
  if (!canonical) throw new OutboundError('OUTBOUND_FAILED', `"${host}" is not a valid host name or address`);
  const ip = ipOf(canonical);
  if (ip) {
    policy.checkAddress(ip);
    return { host: canonical, addresses: [{ address: ip, family: net.isIPv4(ip) ? 4 : 6 }], literal: true, allowedByName: false };
  }
  let found: dns.LookupAddress[];
  try {
    found = await dns.promises.lookup(canonical, { all: true });
  } catch (e) {
    throw new OutboundError('OUTBOUND_FAILED', socketErrorInWords(e, canonical));
  }
  if (found.length === 0) throw new OutboundError('OUTBOUND_FAILED', `${canonical} does not resolve to any address`);
  const allowedByName = policy.allowsName(canonical);
  if (!allowedByName) checkAll(policy, canonical, found);
  return { host: canonical, addresses: found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })), literal: false, allowedByName };
}

/**
 * A `lookup` for net/tls/http connections that checks what DNS answered before the socket connects, so
 * the connection goes to the very address that was checked (no second lookup an attacker's DNS could
 * answer differently: DNS rebinding). IP-address hosts never reach a lookup: check those first.
 */
export function checkedLookup(policy: OutboundPolicy): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      try {
        if (addresses.length === 0) throw new OutboundError('OUTBOUND_FAILED', `${hostname} does not resolve to any address`);
        if (!policy.allowsName(hostname.toLowerCase())) checkAll(policy, hostname, addresses);
      } catch (e) {
        return callback(e);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as net.LookupFunction;
}
