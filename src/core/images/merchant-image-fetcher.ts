// Merchant images (product, brand, after-sales evidence) fetched by core for the page, which never
// contacts a merchant's host (img-src 'self'): https without credentials, public addresses only at
// every hop (public-address.ts), bounded size, one deadline over everything, few redirects, few at
// once, only PNG, JPEG, GIF or WebP by their bytes (never SVG), no cookie, referrer or key, a bounded
// cache (contract §7.1). Addresses are not logged (evidence is the buyer's): only host and reason.
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { createPublicOnlyLookup, hostAddress, isPublicAddress, NonPublicAddressError, type HostResolver } from './public-address';

export interface MerchantImageLimits {
  readonly maxBytes: number;
  /** From the request to the last byte, redirects included. */
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /** The longest address the interface allows (interface v1: imageUrl length ≤ 2048). */
  readonly maxUrlLength: number;
  /** Fetches at once; the rest wait their turn, so bodies held in memory stay ≤ maxConcurrent × maxBytes. */
  readonly maxConcurrent: number;
}

export const MERCHANT_IMAGE_LIMITS: MerchantImageLimits = { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 3, maxUrlLength: 2048, maxConcurrent: 6 };

export type MerchantImageRefusal = 'bad-address' | 'too-large' | 'not-an-image' | 'unreachable';

export type MerchantImageResult = { ok: true; body: Uint8Array; contentType: string } | { ok: false; reason: MerchantImageRefusal };

/** The HTTP status a host answers the page with for a refusal. */
export const MERCHANT_IMAGE_STATUS: Readonly<Record<MerchantImageRefusal, 400 | 413 | 415 | 502>> = {
  'bad-address': 400,
  'too-large': 413,
  'not-an-image': 415,
  unreachable: 502,
};

export interface MerchantImageFetcher {
  fetch(url: string): Promise<MerchantImageResult>;
}

export interface MerchantImageFetcherOptions {
  limits?: Partial<MerchantImageLimits>;
  /** Extra trusted CA (tests' local HTTPS server); the system's CAs otherwise. */
  ca?: string;
  /**
   * Only for tests' image host on 127.0.0.1: these exact addresses pass as if public. The interface
   * promises public addresses, so the app itself never sets this (public-address.ts).
   */
  testAddresses?: readonly string[];
  /** Only for tests: names resolved by this instead of the system's DNS. */
  testResolver?: HostResolver;
  log?: (message: string, fields: Record<string, string>) => void;
  /** Bytes of cached images kept in memory (oldest dropped first). */
  cacheBytes?: number;
  /** Images kept at most, however small: each also holds its address (up to 2048 characters). */
  cacheEntries?: number;
}

/** The image type the bytes show, or null: PNG, JPEG, GIF and WebP only. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...signature: number[]): boolean => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return null;
}

function checkAddress(raw: string, base: URL | undefined, limits: MerchantImageLimits, allowed: (address: string) => boolean): URL | null {
  if (raw.length > limits.maxUrlLength) return null;
  let url: URL;
  try {
    // A redirect's Location is read against the address that sent it; one that does not parse is refused.
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.href.length > limits.maxUrlLength) return null;
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  // An address written as an IP is never looked up, so it is judged here; names at lookup.
  const host = hostAddress(url.hostname);
  if (isIP(host) !== 0 && !allowed(host)) return null;
  return url;
}

/** A queue of at most `limit` running tasks. */
function createGate(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}

type Outcome = MerchantImageResult | { redirect: string };

export function createMerchantImageFetcher(options: MerchantImageFetcherOptions = {}): MerchantImageFetcher {
  const limits: MerchantImageLimits = { ...MERCHANT_IMAGE_LIMITS, ...options.limits };
  const cacheBytes = options.cacheBytes ?? 32 * 1024 * 1024;
  const cache = new Map<string, { loading: Promise<MerchantImageResult>; bytes: number }>();
  const cacheEntries = options.cacheEntries ?? 2_000;
  const trim = (): void => {
    let total = [...cache.values()].reduce((sum, entry) => sum + entry.bytes, 0);
    for (const [key, entry] of cache) {
      if (total <= cacheBytes && cache.size <= cacheEntries) return;
      total -= entry.bytes;
      cache.delete(key);
    }
  };
  const log = options.log ?? (() => undefined);
  const testAddresses = new Set(options.testAddresses ?? []);
  const allowed = (address: string): boolean => testAddresses.has(address) || isPublicAddress(address);
  const lookup = createPublicOnlyLookup(allowed, options.testResolver);
  const gate = createGate(limits.maxConcurrent);

  const once = (url: URL, signal: AbortSignal): Promise<Outcome> =>
    new Promise((resolve) => {
      const requestOptions: RequestOptions = {
        method: 'GET',
        signal,
        headers: { Accept: 'image/png, image/jpeg, image/gif, image/webp', 'User-Agent': 'ProcureDesk' },
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        lookup,
      };
      const request = httpsRequest(url, requestOptions, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && typeof response.headers.location === 'string') {
          response.destroy();
          resolve({ redirect: response.headers.location });
          return;
        }
        if (status !== 200) {
          response.resume();
          resolve({ ok: false, reason: 'unreachable' });
          return;
        }
        const declared = (response.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
        if (!declared.startsWith('image/') || declared === 'image/svg+xml') {
          response.destroy();
          resolve({ ok: false, reason: 'not-an-image' });
          return;
        }
        const length = Number(response.headers['content-length'] ?? NaN);
        if (Number.isFinite(length) && length > limits.maxBytes) {
          response.destroy();
          resolve({ ok: false, reason: 'too-large' });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Counted as it arrives: a missing or lying Content-Length cannot make us hold more.
          if (size > limits.maxBytes) {
            response.destroy();
            resolve({ ok: false, reason: 'too-large' });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          const body = new Uint8Array(Buffer.concat(chunks));
          const sniffed = sniffImageType(body);
          resolve(sniffed === null ? { ok: false, reason: 'not-an-image' } : { ok: true, body, contentType: sniffed });
        });
        response.on('error', () => resolve({ ok: false, reason: 'unreachable' }));
        response.on('close', () => resolve({ ok: false, reason: 'unreachable' })); // cut short (after 'end' it changes nothing)
      });
      request.on('error', (error) => resolve({ ok: false, reason: error instanceof NonPublicAddressError ? 'bad-address' : 'unreachable' }));
      request.end();
    });

  const load = async (raw: string): Promise<MerchantImageResult> => {
    const first = checkAddress(raw, undefined, limits, allowed);
    if (first === null) return { ok: false, reason: 'bad-address' };
    let url: URL = first;
    const signal = AbortSignal.timeout(limits.timeoutMs);
    // The deadline ends the wait whatever state the request is in (lookup, TLS, headers, body).
    const deadline = new Promise<Outcome>((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, reason: 'unreachable' }), { once: true }));
    for (let redirects = 0; ; redirects++) {
      const outcome: Outcome = await Promise.race([once(url, signal), deadline]);
      if (!('redirect' in outcome)) {
        if (!outcome.ok) log('merchant image not shown', { host: url.host, reason: outcome.reason });
        return outcome;
      }
      const next: URL | null = redirects < limits.maxRedirects ? checkAddress(outcome.redirect, url, limits, allowed) : null;
      if (next === null) {
        log('merchant image not shown', { host: url.host, reason: 'redirect refused' });
        return { ok: false, reason: redirects < limits.maxRedirects ? 'bad-address' : 'unreachable' };
      }
      url = next;
    }
  };

  return {
    fetch(url) {
      const cached = cache.get(url);
      if (cached !== undefined) return cached.loading;
      // Kept while loading too, so that the page's repeated views share one request.
      const entry = { loading: gate(() => load(url)), bytes: 0 };
      cache.set(url, entry);
      void entry.loading.then((result) => {
        if (cache.get(url) !== entry) return;
        // A failure is not kept: the next view tries again (the host may be back).
        if (!result.ok) cache.delete(url);
        else {
          entry.bytes = result.body.byteLength;
          trim();
        }
      });
      return entry.loading;
    },
  };
}
