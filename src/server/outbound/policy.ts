import net from 'node:net';
import { OutboundError } from '@/shared/outbound-error';

/**
 * Which addresses outbound calls (connectors, the http-request node and every node that calls out) may
 * reach. Public addresses are fine; the kinds below are refused unless OUTBOUND_ALLOW allows them, so a
 * pipeline author cannot make the server call itself, the cloud metadata service or the hospital's
 * internal network by accident or on purpose. Checks are on addresses (after DNS resolution), never on
 * the spelling of a URL.
 */
export const ADDRESS_KINDS = ['unspecified', 'loopback', 'private', 'link-local', 'cgnat', 'unique-local', 'multicast', 'reserved'] as const;
export type AddressKind = (typeof ADDRESS_KINDS)[number];

const KIND_WORDS: Record<AddressKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  'link-local': 'a link-local address (this range holds the cloud metadata service 169.254.169.254)',
  cgnat: 'a carrier-grade NAT address (shared address space)',
  'unique-local': 'a unique-local IPv6 address (a private network)',
  multicast: 'a multicast address',
  reserved: 'a reserved address that is not routed on the internet',
};

type Rule = readonly [address: string, prefix: number, kind: AddressKind];

const IPV4: Rule[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network"; 0.0.0.0 reaches this machine on Linux
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // future use and 255.255.255.255 (broadcast)
];

const IPV6: Rule[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48, 'private'], // local-use NAT64
  ['100::', 64, 'reserved'], // discard-only
  ['2001::', 32, 'reserved'], // Teredo (the IPv4 address inside is obfuscated)
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

/** The two 16-bit groups of an IPv4 address, as written inside an IPv6 one. */
function v4Groups(address: string): string {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * Rules by kind. IPv4 rules also cover the IPv6 addresses that carry an IPv4 address: IPv4-mapped
 * (::ffff:127.0.0.1, which Node's BlockList matches against IPv4 rules itself), NAT64 (64:ff9b::/96) and
 * 6to4 (2002::/16), so ::ffff:7f00:1, 64:ff9b::7f00:1 and 2002:7f00:1:: are all loopback.
 */
const KIND_LISTS: [AddressKind, net.BlockList][] = ADDRESS_KINDS.map((kind) => {
  const list = new net.BlockList();
  for (const [address, prefix, k] of IPV4) {
    if (k !== kind) continue;
    list.addSubnet(address, prefix, 'ipv4');
    list.addSubnet(`64:ff9b::${v4Groups(address)}`, 96 + prefix, 'ipv6');
    list.addSubnet(`2002:${v4Groups(address)}::`, 16 + prefix, 'ipv6');
  }
  for (const [address, prefix, k] of IPV6) if (k === kind) list.addSubnet(address, prefix, 'ipv6');
  return [kind, list];
});

function family(address: string): 'ipv4' | 'ipv6' {
  return net.isIPv4(address) ? 'ipv4' : 'ipv6';
}

/** An IP address without brackets or an IPv6 zone (`fe80::1%eth0`), or undefined when `host` is not one. */
export function ipOf(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  return net.isIP(bare) ? bare : undefined;
}

/** The kind of an IP address that outbound calls refuse by default, or null for a public address. */
export function classifyAddress(address: string): AddressKind | null {
  const ip = ipOf(address);
  if (!ip) throw new Error(`not an IP address: ${address}`);
  for (const [kind, list] of KIND_LISTS) if (list.check(ip, family(ip))) return kind;
  return null;
}

/**
 * A host as the URL parser reads it: lower case, IPv6 without brackets, and IPv4 addresses in any
 * spelling (`2130706433`, `0x7f.1`, `017700000001`, `127.1`) turned into dotted decimal, the way the
 * resolver would read them. Undefined when it is not a valid host.
 */
export function canonicalHost(host: string): string | undefined {
  const trimmed = host.trim().replace(/\.$/, '');
  if (!trimmed) return undefined;
  const ip = ipOf(trimmed);
  if (ip) return net.isIPv6(ip) ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip;
  try {
    const parsed = new URL(`http://${trimmed}/`);
    if (parsed.pathname !== '/' || parsed.port || parsed.username) return undefined;
    return parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}

/** What OUTBOUND_ALLOW lets through besides public addresses. */
export interface AllowList {
  kinds: Set<AddressKind>;
  addresses: net.BlockList;
  /** Exact host names (lower case). */
  names: Set<string>;
  /** `*.hospital.local` entries, kept as `.hospital.local`. */
  suffixes: string[];
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)*$/;

/** Reads OUTBOUND_ALLOW's entries; throws with the entry that is not a CIDR, address, host name or kind. */
export function parseAllowList(entries: string[]): AllowList {
  const allow: AllowList = { kinds: new Set(), addresses: new net.BlockList(), names: new Set(), suffixes: [] };
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if ((ADDRESS_KINDS as readonly string[]).includes(entry)) {
      allow.kinds.add(entry as AddressKind);
      continue;
    }
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (cidr) {
      const ip = ipOf(cidr[1]!);
      const prefix = Number(cidr[2]);
      if (!ip || prefix > (net.isIPv4(ip) ? 32 : 128)) throw new Error(`OUTBOUND_ALLOW: "${raw}" is not a valid CIDR range`);
      allow.addresses.addSubnet(ip, prefix, family(ip));
      continue;
    }
    const ip = ipOf(entry);
    if (ip) {
      allow.addresses.addAddress(ip, family(ip));
      continue;
    }
    const wildcard = entry.startsWith('*.');
    const name = wildcard ? entry.slice(2) : entry;
    const canonical = canonicalHost(name);
    if (!HOST_NAME.test(name) || canonical !== name) {
      throw new Error(
        `OUTBOUND_ALLOW: "${raw}" is not a CIDR range, an IP address, a host name (or *.domain) or one of ${ADDRESS_KINDS.join(', ')}` +
          (canonical && ipOf(canonical) ? ` (it reads as the address ${canonical}: write that instead)` : ''),
      );
    }
    if (wildcard) allow.suffixes.push(`.${name}`);
    else allow.names.add(name);
  }
  return allow;
}

/** The outbound policy: which hosts and addresses outbound calls may reach. */
export class OutboundPolicy {
  constructor(readonly allow: AllowList = parseAllowList([])) {}

  static fromEntries(entries: string[]): OutboundPolicy {
    return new OutboundPolicy(parseAllowList(entries));
  }

  /**
   * Whether `host` (canonical, see canonicalHost) is allowed by name: its addresses are then not checked
   * (an internal FHIR server named in OUTBOUND_ALLOW may live on a private address).
   */
  allowsName(host: string): boolean {
    if (ipOf(host)) return false;
    const name = host.toLowerCase();
    return this.allow.names.has(name) || this.allow.suffixes.some((s) => name.endsWith(s));
  }

  /**
   * Answers of `refusal` by address and host: every call to a connector's server asks about the same address, and
   * the answer depends on nothing else (the allow list is fixed when the policy is made). Only the verdict on an
   * address is kept: which address a name resolves to is still looked up and checked on every new connection.
   */
  private readonly verdicts = new Map<string, string | null>();

  /** Why `address` may not be reached, or null when it may. */
  refusal(address: string, host?: string): string | null {
    const key = host === undefined ? address : `${address}\u0000${host}`;
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      if (this.verdicts.size >= 1_000) this.verdicts.clear();
      this.verdicts.set(key, (verdict = this.decide(address, host)));
    }
    return verdict;
  }

  private decide(address: string, host: string | undefined): string | null {
    const ip = ipOf(address);
    if (!ip) return `${address} is not an IP address`;
    const kind = classifyAddress(ip);
    if (kind === null || this.allow.kinds.has(kind) || this.allow.addresses.check(ip, family(ip))) return null;
    const shown = host && host !== ip ? `${host} resolves to ${ip}` : ip;
    const hint = host && host !== ip ? `${host} or ${ip}` : ip;
    return [
      `${shown}, ${KIND_WORDS[kind]}: outbound calls to it are refused. An administrator`,
      `can allow it with OUTBOUND_ALLOW (e.g. ${hint}, a CIDR range, or "${kind}").`,
    ].join(' ');
  }

  /** Throws OUTBOUND_REFUSED when `address` may not be reached. */
  checkAddress(address: string, host?: string): void {
    const why = this.refusal(address, host);
    if (why) throw new OutboundError('OUTBOUND_REFUSED', why);
  }
}
