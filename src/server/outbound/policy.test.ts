import { describe, expect, it } from 'vitest';
import { canonicalHost, classifyAddress, OutboundPolicy, parseAllowList } from './policy';
import { resolveHost } from './resolve';

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.20', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('IPv4 %s is %s', (ip, kind) => expect(classifyAddress(ip)).toBe(kind));

  it.each(['8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '192.169.0.1', '1.1.1.1'])('IPv4 %s is public', (ip) =>
    expect(classifyAddress(ip)).toBeNull(),
  );

  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['[::1]', 'loopback'],
  ])('IPv6 %s is %s', (ip, kind) => expect(classifyAddress(ip)).toBe(kind));

  it.each(['2606:4700:4700::1111', '2a00:1450:4001::200e'])('IPv6 %s is public', (ip) => expect(classifyAddress(ip)).toBeNull());

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1
    ['64:ff9b::a9fe:a9fe', 'link-local'], // NAT64 of 169.254.169.254
    ['2002:a00:1::', 'private'], // 6to4 of 10.0.0.1
    ['::7f00:1', 'reserved'], // IPv4-compatible (deprecated)
  ])('IPv4 inside IPv6: %s is %s', (ip, kind) => expect(classifyAddress(ip)).toBe(kind));

  it.each(['::ffff:8.8.8.8', '64:ff9b::808:808'])('IPv4 inside IPv6: %s is public', (ip) => expect(classifyAddress(ip)).toBeNull());

  it.each([
    ['2130706433', '127.0.0.1'], // decimal
    ['0x7f.1', '127.0.0.1'], // hex, short form
    ['017700000001', '127.0.0.1'], // octal
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['FHIR.Example.ORG.', 'fhir.example.org'],
  ])('reads the host %s as %s', (host, canonical) => {
    expect(canonicalHost(host)).toBe(canonical);
  });

  it('refuses every spelling of a loopback or metadata address before connecting', async () => {
    const policy = new OutboundPolicy();
    for (const host of ['2130706433', '0x7f.1', '017700000001', '127.1', '::ffff:7f00:1', '0xa9fea9fe', 'localhost', '0']) {
      await expect(resolveHost(host, policy), host).rejects.toMatchObject({ code: 'OUTBOUND_REFUSED' });
    }
  });
});

describe('OUTBOUND_ALLOW', () => {
  it('allows address kinds, CIDR ranges, addresses and host names', () => {
    const policy = OutboundPolicy.fromEntries(['loopback', '10.20.0.0/16', '192.168.7.7', 'fd00:1::/32', 'fhir.hospital.local', '*.lab.local']);
    expect(policy.refusal('127.0.0.1')).toBeNull();
    expect(policy.refusal('::1')).toBeNull();
    expect(policy.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(policy.refusal('10.20.3.4')).toBeNull();
    expect(policy.refusal('::ffff:10.20.3.4')).toBeNull();
    expect(policy.refusal('10.21.0.1')).toMatch(/private network/);
    expect(policy.refusal('192.168.7.7')).toBeNull();
    expect(policy.refusal('192.168.7.8')).not.toBeNull();
    expect(policy.refusal('fd00:1::5')).toBeNull();
    expect(policy.refusal('169.254.169.254')).toMatch(/metadata/);
    expect(policy.allowsName('fhir.hospital.local')).toBe(true);
    expect(policy.allowsName('other.hospital.local')).toBe(false);
    expect(policy.allowsName('a.b.lab.local')).toBe(true);
    expect(policy.allowsName('lab.local')).toBe(false);
    expect(policy.allowsName('127.0.0.1')).toBe(false); // addresses are never allowed by name
  });

  it('says why an address is refused and how to allow it', () => {
    const why = new OutboundPolicy().refusal('10.0.0.5', 'ehr.internal');
    expect(why).toBe(
      'ehr.internal resolves to 10.0.0.5, a private network address: outbound calls to it are refused. ' +
        'An administrator can allow it with OUTBOUND_ALLOW (e.g. ehr.internal or 10.0.0.5, a CIDR range, or "private").',
    );
  });

  it('answers the same again for an address it was asked about, each host name in its own words', () => {
    const policy = new OutboundPolicy();
    for (let i = 0; i < 3; i++) {
      expect(policy.refusal('10.0.0.5', 'ehr.internal')).toMatch(/^ehr\.internal resolves to 10\.0\.0\.5, a private network address/);
      expect(policy.refusal('10.0.0.5', 'lab.internal')).toMatch(/^lab\.internal resolves to 10\.0\.0\.5/);
      expect(policy.refusal('10.0.0.5')).toMatch(/^10\.0\.0\.5, a private network address/);
      expect(policy.refusal('8.8.8.8')).toBeNull();
    }
  });

  it.each(['foo bar', '10.0.0.0/33', '2130706433', 'fhir..local', '*'])('refuses the entry %s with its reason', (entry) => {
    expect(() => parseAllowList([entry])).toThrow(/OUTBOUND_ALLOW: /);
  });
});
