// What the merchant accepts as a public address (contract §7.1): callbacks and images must be public
// HTTPS. Nothing is resolved over DNS: a merchant judges the address as written (address-rules.ts).
import { isIpLiteral, isLoopbackHost, isPublicIpLiteral } from './address-rules';

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

function isPublicHost(host: string): boolean {
  if (isIpLiteral(host)) return isPublicIpLiteral(host);
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
