// How the merchant reads an IP address written in a URL (contract §7.1), on ipaddr.js as the app is:
// a public literal is `unicast` (IPv6 also inside 2000::/3, IANA's global unicast block), so IPv4
// carried in IPv6 (mapped, NAT64, 6to4, Teredo…) is never public as written; a loopback host is
// localhost, 127.0.0.0/8, ::1 or 127.x carried as IPv4-mapped. As written: nothing is resolved.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Dotted decimal IPv4 or IPv6 without a zone (`0x7f.1`, `127.1` and `fe80::1%1` are not addresses). */
function parseLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (isIP(host) === 4 && ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host);
  if (isIP(host) === 6 && !host.includes('%') && ipaddr.IPv6.isValid(host)) return ipaddr.IPv6.parse(host);
  return null;
}

function bare(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** Whether `hostname` (a URL's, brackets allowed) is written as an IP address at all. */
export function isIpLiteral(hostname: string): boolean {
  return isIP(bare(hostname)) !== 0;
}

export function isPublicIpLiteral(hostname: string): boolean {
  const address = parseLiteral(bare(hostname));
  if (address === null || address.range() !== 'unicast') return false;
  return address instanceof ipaddr.IPv4 || ((address.parts[0] ?? 0) & 0xe000) === 0x2000;
}

/** localhost (and names under it), 127.0.0.0/8, ::1 and 127.x as IPv4-mapped (WHATWG prints ::ffff:7f00:1). */
export function isLoopbackHost(hostname: string): boolean {
  const host = bare(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const address = parseLiteral(host);
  if (address === null) return false;
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) return address.toIPv4Address().range() === 'loopback';
  return address.range() === 'loopback';
}
