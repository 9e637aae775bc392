// The member's IP allow-list (interface v1 §5 rule 6): entries are single addresses or CIDR ranges, as
// merchants' back offices take them ("203.0.113.7", "203.0.113.0/24", "2001:db8::/32").
import { BlockList, isIP } from 'node:net';

/** The client address without the IPv4-mapped prefix a dual-stack socket reports. */
export function normaliseIp(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

export function isIpAllowed(allowList: readonly string[], address: string): boolean {
  const ip = normaliseIp(address);
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const entry of allowList) {
    const [base = '', bits] = entry.trim().split('/');
    const entryFamily = isIP(base) === 6 ? 'ipv6' : isIP(base) === 4 ? 'ipv4' : null;
    // An entry that is not an address cannot admit anyone; it is skipped rather than failing the request.
    if (entryFamily === null) continue;
    const prefix = bits === undefined ? null : Number(bits);
    if (prefix === null) list.addAddress(base, entryFamily);
    else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (entryFamily === 'ipv4' ? 32 : 128)) list.addSubnet(base, prefix, entryFamily);
  }
  return isIP(ip) !== 0 && list.check(ip, family);
}
