// Merchant images are public HTTPS addresses (interface v1: imageUrl and after-sales images are
// "public HTTPS image URLs"), so core never fetches one from this machine or the buyer's private
// network: a merchant's (or a forged event's) address cannot make the app probe the router or a
// local service. Checked on the address actually connected to, after DNS, so a public-looking name
// that resolves to 127.0.0.1 or 192.168.x.x is refused too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return !(a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224);
  }
  if (isIP(ip) === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
    if (mapped?.[1] !== undefined) return isPublicAddress(mapped[1]);
    return !(ip === '::' || ip === '::1' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || /^ff/.test(ip) || ip.startsWith('::ffff:'));
  }
  return false;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class NonPublicAddressError extends Error {
  override readonly name = 'NonPublicAddressError';
  readonly code = 'ENONPUBLIC';
}

/** A `lookup` for https.request that resolves as usual and refuses non-public answers. */
export function publicOnlyLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) {
      callback(error, []);
      return;
    }
    const list = addresses;
    if (list.length === 0 || list.some((entry) => !isPublicAddress(entry.address))) {
      callback(new NonPublicAddressError(`${hostname} does not resolve to a public address`), []);
      return;
    }
    if (options.all === true) callback(null, list);
    else callback(null, list[0]?.address ?? '', list[0]?.family);
  });
}
