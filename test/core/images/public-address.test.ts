// The one "public address" rule (contract §7.1, how the app fetches merchant images): every IANA
// special-purpose range refused at its first and last address, public ones passing, odd textual forms
// refused, and IPv4 carried inside IPv6 judged exactly as the IPv4 itself (seeded property).
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { embeddedIPv4, isPublicAddress, parseIpStrict } from '../../../src/core/images/public-address';

/** [first, last] of every special-purpose range (IANA IPv4/IPv6 Special-Purpose Address Registries, multicast, 240/4). */
const REFUSED_RANGES: readonly (readonly [string, string, string])[] = [
  ['0.0.0.0/8 this network', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8 private', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10 shared (CGNAT)', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8 loopback', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16 link local', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12 private', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24 IETF protocol assignments', '192.0.0.0', '192.0.0.255'],
  ['192.0.2.0/24 TEST-NET-1', '192.0.2.0', '192.0.2.255'],
  ['192.31.196.0/24 AS112-v4', '192.31.196.0', '192.31.196.255'],
  ['192.52.193.0/24 AMT', '192.52.193.0', '192.52.193.255'],
  ['192.88.99.0/24 6to4 relay anycast', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16 private', '192.168.0.0', '192.168.255.255'],
  ['192.175.48.0/24 AS112 direct delegation', '192.175.48.0', '192.175.48.255'],
  ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24 TEST-NET-2', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24 TEST-NET-3', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4 reserved', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32 limited broadcast', '255.255.255.255', '255.255.255.255'],
  ['::/128 unspecified', '::', '::'],
  ['::1/128 loopback', '::1', '::1'],
  ['::ffff:0:0/96 IPv4-mapped', '::ffff:0.0.0.0', '::ffff:255.255.255.255'],
  ['::/96 IPv4-compatible', '::0.0.0.2', '::255.255.255.255'],
  ['64:ff9b::/96 NAT64', '64:ff9b::', '64:ff9b::ffff:ffff'],
  ['64:ff9b:1::/48 local-use NAT64', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64 discard-only', '100::', '100::ffff:ffff:ffff:ffff'],
  ['100:0:0:1::/64 dummy prefix', '100:0:0:1::', '100::1:ffff:ffff:ffff:ffff'],
  ['2001::/23 IETF protocol assignments', '2001:100::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001::/32 Teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:1::1/128 PCP anycast', '2001:1::1', '2001:1::1'],
  ['2001:1::2/128 TURN anycast', '2001:1::2', '2001:1::2'],
  ['2001:1::3/128 DNS-SD SRP anycast', '2001:1::3', '2001:1::3'],
  ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
  ['2001:3::/32 AMT', '2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:4:112::/48 AS112-v6', '2001:4:112::', '2001:4:112:ffff:ffff:ffff:ffff:ffff'],
  ['2001:10::/28 deprecated ORCHID', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:20::/28 ORCHIDv2', '2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:30::/28 drone remote ID', '2001:30::', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2002::/16 6to4', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2620:4f:8000::/48 AS112 direct delegation', '2620:4f:8000::', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20 documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['5f00::/16 segment routing', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7 unique local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10 link local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10 site local (deprecated)', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8 multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['outside 2000::/3, unallocated', '4000::', 'dfff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2001:200::1',
  '2400:cb00:2048:1::c629:d7a2',
  '2606:4700:4700:0000:0000:0000:0000:1111',
  '2606:4700:4700::1111'.toUpperCase(),
  '::ffff:1.1.1.1',
  '::ffff:101:101',
  '::1.1.1.1',
  '64:ff9b::8.8.8.8',
  '64:ff9b::808:808',
  '64:ff9b:1::8.8.8.8',
  '2002:808:808::1',
  // Teredo: server 65.54.227.120, client 1.1.1.1 (sent inverted).
  '2001:0:4136:e378:8000:63bf:fefe:fefe',
];

describe('isPublicAddress', () => {
  it('refuses the addresses issue 25 found accepted', () => {
    for (const address of ['198.18.0.1', '64:ff9b::a00:1', '2002:c0a8:101::1', '::127.0.0.1']) expect(isPublicAddress(address), address).toBe(false);
  });

  it.each(REFUSED_RANGES)('refuses %s from first to last', (_range, first, last) => {
    expect(isPublicAddress(first), first).toBe(false);
    expect(isPublicAddress(last), last).toBe(false);
  });

  it('passes public unicast addresses, IPv4 and IPv6, and public IPv4 carried in IPv6', () => {
    for (const address of PUBLIC) expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuses carried IPv4 of private networks in every form', () => {
    for (const address of [
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:0:192.168.1.1',
      '::10.0.0.1',
      '::7f00:1',
      '64:ff9b::192.168.1.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::10.0.0.1',
      // Local-use NAT64 read in another prefix length than /96: not placed, so refused.
      '64:ff9b:1:808:8:800::',
      '64:ff9b:2::8.8.8.8',
      '2002:a9fe:a9fe::1',
      '2002:6440:1::1',
      // Teredo: client 192.168.1.1 behind a public server; client public behind a private server.
      '2001:0:4136:e378:8000:63bf:3f57:fefe',
      '2001:0:c0a8:101:8000:63bf:fefe:fefe',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses anything but a plain address: odd IPv4 forms, zones, brackets, spaces, names', () => {
    for (const text of [
      '0x7f.1',
      '127.1',
      '0177.0.0.1',
      '010.8.8.8',
      '08.8.8.8',
      '2130706433',
      '0x01010101',
      '1.1.1',
      '1.1.1.1.1',
      '256.1.1.1',
      '1.1.1.1/32',
      ' 1.1.1.1',
      '1.1.1.1 ',
      '[2606:4700:4700::1111]',
      '2606:4700:4700::1111%eth0',
      'fe80::1%1',
      '::ffff:1.1.1.1%0',
      '::ffff:01.1.1.1',
      '2606:4700:4700::11111',
      '2606:4700:4700:::1111',
      'one.one.one.one',
      'localhost',
      '',
    ]) {
      expect(isPublicAddress(text), JSON.stringify(text)).toBe(false);
      expect(parseIpStrict(text), JSON.stringify(text)).toBeNull();
    }
  });
});

const octet = fc.nat(255);
/** IPv4 addresses, half of them drawn near the special ranges' edges so both verdicts come up. */
const ipv4 = fc.oneof(
  fc.tuple(octet, octet, octet, octet),
  fc.tuple(fc.constantFrom(0, 10, 100, 127, 169, 172, 192, 198, 203, 223, 224, 240, 255), octet, octet, octet),
  fc.constantFrom([192, 168, 1, 1], [10, 0, 0, 1], [127, 0, 0, 1], [198, 18, 0, 1], [8, 8, 8, 8], [1, 1, 1, 1], [100, 64, 0, 0], [192, 0, 0, 8]),
);
const hex = (high: number, low: number): string => ((high << 8) | low).toString(16);
const group = fc.nat(0xffff).map((n) => n.toString(16));
const invert = (n: number): string => (n ^ 0xffff).toString(16);

type Form = (o: readonly number[], rest: readonly string[]) => string;
const FORMS: Record<string, Form> = {
  'mapped, dotted': (o) => `::ffff:${o.join('.')}`,
  'mapped, hex (as WHATWG URLs print it)': ([a = 0, b = 0, c = 0, d = 0]) => `::ffff:${hex(a, b)}:${hex(c, d)}`,
  'mapped, in full': ([a = 0, b = 0, c = 0, d = 0]) => `0:0:0:0:0:ffff:${hex(a, b)}:${hex(c, d)}`,
  'translated (RFC 6145)': (o) => `::ffff:0:${o.join('.')}`,
  'compatible, dotted': (o) => `::${o.join('.')}`,
  'NAT64 64:ff9b::/96': (o) => `64:ff9b::${o.join('.')}`,
  'NAT64 hex': ([a = 0, b = 0, c = 0, d = 0]) => `64:ff9b::${hex(a, b)}:${hex(c, d)}`,
  'NAT64 local use, /96': (o) => `64:ff9b:1::${o.join('.')}`,
  '6to4 with any subnet and host': ([a = 0, b = 0, c = 0, d = 0], rest) => `2002:${hex(a, b)}:${hex(c, d)}:${rest.join(':')}`,
  // Server 65.54.227.120 (public), client inverted.
  'Teredo client behind a public server': ([a = 0, b = 0, c = 0, d = 0], [flags = '0', port = '0']) =>
    `2001:0:4136:e378:${flags}:${port}:${invert((a << 8) | b)}:${invert((c << 8) | d)}`,
};

describe('IPv4 carried in IPv6', () => {
  it.each(Object.keys(FORMS))('%s gets the verdict of the IPv4 itself', (name) => {
    const form = FORMS[name];
    if (form === undefined) throw new Error(name);
    fc.assert(
      fc.property(ipv4, fc.array(group, { minLength: 5, maxLength: 5 }), (octets, rest) => {
        const written = form(octets, rest);
        expect(parseIpStrict(written), written).not.toBeNull();
        expect(isPublicAddress(written), written).toBe(isPublicAddress(octets.join('.')));
      }),
      { seed: 25, numRuns: 1500 },
    );
  });

  it('unwraps the carried address exactly', () => {
    const unwrap = (text: string): string[] | undefined => {
      const address = parseIpStrict(text);
      return address instanceof ipaddr.IPv6 ? embeddedIPv4(address)?.map(String) : undefined;
    };
    expect(unwrap('64:ff9b::a00:1')).toEqual(['10.0.0.1']);
    expect(unwrap('2002:c0a8:101::1')).toEqual(['192.168.1.1']);
    expect(unwrap('::127.0.0.1')).toEqual(['127.0.0.1']);
    expect(unwrap('2001:0:4136:e378:8000:63bf:3f57:fefe')).toEqual(['65.54.227.120', '192.168.1.1']);
    expect(unwrap('2606:4700:4700::1111')).toBeUndefined();
  });
});
