// Merchant images are public HTTPS addresses (interface v1: imageUrl and after-sales images), so core
// never fetches one from this machine or the buyer's network: a merchant's (or a forged event's)
// address cannot make the app probe the router or a local service. Judged on the address actually
// connected to, after DNS, by ipaddr.js's ranges (only `unicast` passes), with IPv4 carried inside
// IPv6 (mapped, compatible, NAT64, 6to4, Teredo) unwrapped and judged as IPv4. Rule: contract §7.1.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An address written plainly: dotted decimal IPv4 or IPv6 without a zone; null for anything else. */
export function parseIpStrict(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // Both parsers must agree: ipaddr.js alone takes `0x7f.1` or `127.1`, node:net takes zone ids.
  if (isIP(text) === 4 && ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (isIP(text) === 6 && !text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

function v4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address carries, which a connection to it reaches in the end; null when
 * it carries none. An empty list means it carries one this check cannot place (refused).
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts.map((part) => part ?? 0);
  const zero = (from: number, to: number): boolean => p.slice(from, to).every((part) => part === 0);
  const [p0 = 0, p1 = 0, p2 = 0, p3 = 0, , , p6 = 0, p7 = 0] = p;
  if (zero(0, 5) && p[5] === 0xffff) return [v4(p6, p7)]; // ::ffff:a.b.c.d, IPv4-mapped
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4(p6, p7)]; // ::ffff:0:a.b.c.d, RFC 6145
  if (zero(0, 6)) return [v4(p6, p7)]; // ::a.b.c.d, IPv4-compatible (:: and ::1 land in 0.0.0.0/8)
  if (p0 === 0x64 && p1 === 0xff9b && zero(2, 6)) return [v4(p6, p7)]; // NAT64 64:ff9b::/96
  // NAT64 local use 64:ff9b:1::/48 (RFC 8215): its prefix length is the operator's, so only the /96 form is read.
  if (p0 === 0x64 && p1 === 0xff9b && p2 === 1) return zero(3, 6) ? [v4(p6, p7)] : [];
  if (p0 === 0x2002) return [v4(p1, p2)]; // 6to4 2002:AABB:CCDD::/48
  // Teredo 2001::/32: the server, then the client, whose address is sent inverted (RFC 4380).
  if (p0 === 0x2001 && p1 === 0) return [v4(p2, p3), v4(p6 ^ 0xffff, p7 ^ 0xffff)];
  return null;
}

function isPublicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/**
 * True when `text` is a plain IP address a public host can have. IPv4: ipaddr.js's `unicast` only
 * (private, loopback, link-local, CGNAT, benchmarking, documentation, reserved… refused). IPv6: the
 * carried IPv4 when there is one (all of them public); otherwise `unicast` and inside 2000::/3, the
 * only block IANA hands out for global unicast (ipaddr.js calls e.g. ::7f00:1 or 4000::1 unicast).
 */
export function isPublicAddress(text: string): boolean {
  const address = parseIpStrict(text);
  if (address === null) return false;
  if (address instanceof ipaddr.IPv4) return isPublicIPv4(address);
  const carried = embeddedIPv4(address);
  if (carried !== null) return carried.length > 0 && carried.every(isPublicIPv4);
  const first = address.parts[0] ?? 0;
  return address.range() === 'unicast' && (first & 0xe000) === 0x2000;
}

/** A URL's hostname as an address: IPv6 comes in brackets. */
export function hostAddress(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export class NonPublicAddressError extends Error {
  override readonly name = 'NonPublicAddressError';
  readonly code = 'ENONPUBLIC';
}

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error === null ? resolve(addresses) : reject(error))));

/**
 * A `lookup` for https.request that resolves as usual and refuses the name when any answer is not
 * allowed (all of them: the connection may try each). `allowed` defaults to isPublicAddress.
 */
export function createPublicOnlyLookup(allowed: (address: string) => boolean = isPublicAddress, resolver: HostResolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (list) => {
        if (list.length === 0 || list.some((entry) => !allowed(entry.address))) {
          callback(new NonPublicAddressError(`${hostname} does not resolve to a public address`), []);
          return;
        }
        if (options.all === true) callback(null, list);
        else callback(null, list[0]?.address ?? '', list[0]?.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
    );
  };
}
