// A small hostile merchant over real HTTPS on 127.0.0.1: a working catalog of card
// products (account, categories, catalog pages, details, templates, order detail) whose behaviour a
// test switches at any moment: the key revoked, the account suspended, the IP denied, 500 on every
// request, Retry-After in seconds or as an HTTP-date, and the paging anomalies of a careless merchant
// (total changing mid-sync, duplicates across pages, an empty page before `total`, pageSize ignored).
// It records every request so a test can assert what was (not) sent. Card orders are created (each
// clientOrderRef charged once, idempotent as contract §7.1 says) and read back, so a test can count
// charges; the key can be rotated (the old one refused at once).
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSandboxTls } from '../../src/sandbox/tls/certificate-authority';

export type PagingAnomaly = 'totalGrows' | 'duplicates' | 'emptyPage' | 'ignorePageSize' | 'ignorePageSizeSilently' | 'samePageForever';

export type HostileMode =
  | { readonly kind: 'normal' }
  | { readonly kind: 'revoked' }
  | { readonly kind: 'suspended' }
  | { readonly kind: 'ipDenied' }
  /** Every request (or only those whose path starts with one of `paths`) answered 500 / 500001. */
  | { readonly kind: 'fail500'; readonly paths?: readonly string[] }
  /** Every request (or only `paths` starting so) refused with this status and Retry-After value. */
  | { readonly kind: 'retryAfter'; readonly value: string; readonly status?: 429 | 503; readonly limit?: number; readonly date?: string; readonly paths?: readonly string[] }
  | { readonly kind: 'paging'; readonly anomaly: PagingAnomaly };

export interface HostileRequest {
  readonly method: string;
  readonly path: string;
  readonly key: string | undefined;
}

/** One charge of the merchant's ledger: made when an order is created, never again for its ref. */
export interface HostileCharge {
  readonly clientOrderRef: string;
  readonly amount: number;
}

export interface HostileMerchant {
  readonly baseUrl: string;
  readonly ca: string;
  readonly userId: string;
  /** The key accepted now (rotateKey changes it). */
  readonly apiKey: string;
  readonly requests: HostileRequest[];
  readonly charges: HostileCharge[];
  /** A new key is issued; the old one is refused with 401001 at once (interface v1 §5 rule 4). */
  rotateKey(): string;
  mode(next: HostileMode): void;
  /** Changes one product's price (yuan) and moves its revision on, as a real change would. */
  setPrice(productRef: number, price: number): void;
  /** Revision of a product as the merchant has it. */
  revisionOf(productRef: number): number;
  close(): Promise<void>;
}

export const HOSTILE_USER_ID = '180001';
export const HOSTILE_API_KEY = 'AK_0123456789abcdef0123456789abcdef';

interface Product {
  productRef: number;
  price: number;
  revision: number;
}

let requestCounter = 0;
const newRequestId = (): string => `req_${(++requestCounter).toString(16).padStart(24, '0')}`;

export async function startHostileMerchant(options: { products?: number } = {}): Promise<HostileMerchant> {
  const dir = mkdtempSync(join(tmpdir(), 'procure-hostile-merchant-'));
  const tls = await prepareSandboxTls({ dir, hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const count = options.products ?? 230;
  const baseRevision = 1_700_000_000;
  const products: Product[] = Array.from({ length: count }, (_, i) => ({ productRef: 1001 + i, price: 10 + (i % 7), revision: baseRevision + i }));
  const byRef = new Map(products.map((p) => [p.productRef, p]));
  let mode: HostileMode = { kind: 'normal' };
  let acceptedKey = HOSTILE_API_KEY;
  let keyCounter = 0;
  const charges: HostileCharge[] = [];
  const orders = new Map<string, Record<string, unknown>>();
  let catalogCalls = 0;
  const requests: HostileRequest[] = [];

  const reply = (res: ServerResponse, status: number, code: number, data: unknown, headers: Record<string, string> = {}): void => {
    const requestId = newRequestId();
    const body = JSON.stringify({ code, message: code === 0 ? 'success' : 'refused', data: code === 0 ? data : null, requestId });
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };

  const item = (p: Product): Record<string, unknown> => ({
    productRef: p.productRef,
    catalogRef: 11,
    name: `测试商品 ${p.productRef}`,
    productType: 'card',
    brand: null,
    availability: 'available',
    priceFrom: p.price,
    variantCount: 1,
    revision: p.revision,
    subscriptionState: 'unsubscribed',
    subscriptionExpiresAt: null,
  });
  const detail = (p: Product): Record<string, unknown> => ({
    productRef: p.productRef,
    catalogRef: 11,
    brand: null,
    availability: 'available',
    revision: p.revision,
    name: `测试商品 ${p.productRef}`,
    productType: 'card',
    description: 'card',
    imageUrl: null,
    variants: [{ variantRef: 0, title: '面值', price: p.price, availability: 'available', inventoryType: 'unlimited', remainingUnits: null, purchaseSchemaRevision: 1, faceValue: 20 }],
  });
  const template = (productRef: number): Record<string, unknown> => ({
    productRef,
    variantRef: 0,
    productType: 'card',
    purchaseSchemaRevision: 1,
    entryMode: 'none',
    purchaseFields: [],
    unitRule: { min: 1, max: 10, step: 1 },
  });

  /** One catalog page, as the anomaly of the moment distorts it. */
  const catalogPage = (page: number, asked: number): { list: unknown[]; total: number; page: number; pageSize: number } => {
    catalogCalls += 1;
    const anomaly = mode.kind === 'paging' ? mode.anomaly : null;
    const pageSize = anomaly === 'ignorePageSize' || anomaly === 'ignorePageSizeSilently' ? 20 : asked;
    let all = products;
    let total = products.length;
    if (anomaly === 'totalGrows' && catalogCalls > 1) {
      // A product appears at the front after the first page was read: every later page shifts by one.
      all = [{ productRef: 1000, price: 9, revision: baseRevision }, ...products];
      total = all.length;
    }
    if (anomaly === 'samePageForever') return { list: all.slice(0, pageSize).map(item), total: total * 1000, page, pageSize };
    let start = (page - 1) * pageSize;
    if (anomaly === 'duplicates' && page > 1) start -= 1;
    if (anomaly === 'emptyPage' && page === 2) return { list: [], total, page, pageSize };
    // Pages of 20 whatever was asked, while saying the size asked: a page size ignored without a word.
    if (anomaly === 'ignorePageSizeSilently') return { list: all.slice(start, start + pageSize).map(item), total, page, pageSize: asked };
    return { list: all.slice(start, start + pageSize).map(item), total, page, pageSize };
  };

  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    try {
      const parsed = JSON.parse(text) as unknown;
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };

  /** A card order at the product's price; the same ref returns the order it made, charging nothing. */
  const createOrder = (res: ServerResponse, body: Record<string, unknown>): void => {
    const ref = body.clientOrderRef;
    const units = body.units;
    const product = byRef.get(Number(body.productRef));
    if (typeof ref !== 'string' || typeof units !== 'number' || !Number.isInteger(units) || units < 1) return reply(res, 400, 400001, null);
    const existing = orders.get(ref);
    if (existing) return existing.productRef === body.productRef && existing.units === units ? reply(res, 200, 0, existing) : reply(res, 409, 409001, null);
    if (!product) return reply(res, 404, 404001, null);
    const now = Math.floor(Date.now() / 1000);
    const total = Math.round(product.price * units * 100) / 100;
    const order: Record<string, unknown> = {
      clientOrderRef: ref,
      platformOrderRef: String(900000 + orders.size + 1),
      productRef: product.productRef,
      variantRef: 0,
      productName: `测试商品 ${product.productRef}`,
      variantTitle: '面值',
      productType: 'card',
      units,
      unitPrice: product.price,
      totalAmount: total,
      refundedAmount: 0,
      state: 'pending',
      allowedActions: ['cancel'],
      revision: 1,
      failureReason: null,
      verificationHint: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      orderCallbackUrl: typeof body.orderCallbackUrl === 'string' ? body.orderCallbackUrl : null,
      imageUrl: null,
      entryCount: 0,
      refunds: [],
      card_list: null,
    };
    orders.set(ref, order);
    charges.push({ clientOrderRef: ref, amount: total });
    reply(res, 200, 0, order);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const path = url.pathname.replace(/^\/openapi\/v1/, '');
    const keyHeader = req.headers['x-service-key'];
    requests.push({ method: req.method ?? '', path: path + url.search, key: typeof keyHeader === 'string' ? keyHeader : undefined });
    if (keyHeader !== acceptedKey || req.headers['x-service-user-id'] !== HOSTILE_USER_ID || mode.kind === 'revoked') return reply(res, 401, 401001, null);
    if (mode.kind === 'ipDenied') return reply(res, 403, 403002, null);
    if (mode.kind === 'suspended' && path !== '/account') return reply(res, 403, 403005, null);
    const limited = (paths: readonly string[] | undefined): boolean => paths === undefined || paths.some((p) => path.startsWith(p));
    if (mode.kind === 'fail500' && limited(mode.paths)) return reply(res, 500, 500001, null);
    if (mode.kind === 'retryAfter' && limited(mode.paths)) {
      const status = mode.status ?? 429;
      const headers: Record<string, string> = { 'retry-after': mode.value, 'x-ratelimit-limit': String(mode.limit ?? 120), 'x-ratelimit-remaining': '0' };
      if (mode.date !== undefined) headers.date = mode.date;
      return reply(res, status, status === 429 ? 429001 : 503001, null, headers);
    }
    const num = (name: string, fallback: number): number => Number(url.searchParams.get(name) ?? fallback);
    if (path === '/account') {
      return reply(res, 200, 0, { accountRef: 9, userId: HOSTILE_USER_ID, nickname: 'buyer', accessState: mode.kind === 'suspended' ? 'suspended' : 'active', balance: 500, currency: 'CNY', contractRevision: '1.0.2' });
    }
    if (path === '/categories') return reply(res, 200, 0, { list: [{ catalogRef: 11, name: '游戏点卡', parentRef: null, sort: 1, productCount: count }], total: 1, page: num('page', 1), pageSize: num('pageSize', 20) });
    if (path === '/goods/catalog') return reply(res, 200, 0, catalogPage(num('page', 1), num('pageSize', 20)));
    if (path === '/goods/tpl') return reply(res, 200, 0, template(num('productRef', 0)));
    if (path === '/orders/create' && req.method === 'POST') {
      void readBody(req).then((body) => createOrder(res, body));
      return;
    }
    const orderMatch = /^\/orders\/([A-Za-z0-9_-]+)$/.exec(path);
    if (orderMatch && req.method === 'GET') {
      const order = orders.get(orderMatch[1] ?? '');
      return order ? reply(res, 200, 0, order) : reply(res, 404, 404002, null);
    }
    const productMatch = /^\/goods\/(\d+)$/.exec(path);
    if (productMatch) {
      const product = byRef.get(Number(productMatch[1]));
      return product ? reply(res, 200, 0, detail(product)) : reply(res, 404, 404001, null);
    }
    return reply(res, 404, 404001, null);
  };

  const server: Server = createServer({ cert: tls.serverCertPem, key: tls.serverKeyPem }, handle);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('hostile merchant has no port');

  return {
    baseUrl: `https://127.0.0.1:${address.port}/openapi/v1`,
    ca: tls.caCertPem,
    userId: HOSTILE_USER_ID,
    get apiKey() {
      return acceptedKey;
    },
    requests,
    charges,
    rotateKey() {
      keyCounter += 1;
      acceptedKey = `AK_${keyCounter.toString(16).padStart(32, 'f')}`;
      return acceptedKey;
    },
    mode(next) {
      mode = next;
      catalogCalls = 0;
    },
    setPrice(productRef, price) {
      const product = byRef.get(productRef);
      if (!product) throw new Error(`no product ${productRef}`);
      product.price = price;
      product.revision += 1;
    },
    revisionOf: (productRef) => byRef.get(productRef)?.revision ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
