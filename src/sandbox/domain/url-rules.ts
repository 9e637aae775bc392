// What the merchant accepts as a public address (contract §7.1): callbacks and images must be public
// HTTPS. Nothing is resolved over DNS: a merchant judges the address as written.
import { isIP } from 'node:net';

export type CallbackPolicy = 'loopback' | 'strict';

const MAX_URL_LENGTH = 2048;
const IMAGE_PATH = /\.(jpe?g|png|gif|webp|bmp)$/i;

function parse(text: string): URL | null {
  if (text.length > MAX_URL_LENGTH) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isPrivateIp(host: string): boolean {
  if (isIP(host) === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  if (isIP(host) === 6) {
    return host === '::1' || host === '::' || /^f[cd]/i.test(host) || /^fe[89ab]/i.test(host) || host.startsWith('::ffff:');
  }
  return false;
}

function isPublicHost(host: string): boolean {
  if (isIP(host) !== 0) return !isPrivateIp(host);
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return false;
  return /^([a-z0-9-]+\.)+[a-z]{2,}$/i.test(host);
}

export function isPublicHttpsUrl(text: string): boolean {
  const url = parse(text);
  return url !== null && url.protocol === 'https:' && url.username === '' && url.password === '' && isPublicHost(hostOf(url));
}

export function isPublicImageUrl(text: string): boolean {
  const url = parse(text);
  return url !== null && isPublicHttpsUrl(text) && IMAGE_PATH.test(url.pathname);
}

/** Callback addresses: public HTTPS, or under the loopback policy also http(s) on a loopback address. */
export function isAllowedCallbackUrl(text: string, policy: CallbackPolicy): boolean {
  if (isPublicHttpsUrl(text)) return true;
  if (policy !== 'loopback') return false;
  const url = parse(text);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(hostOf(url));
}
