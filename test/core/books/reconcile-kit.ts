// Shared pieces of the reconciliation tests: the app connected to a sandbox account (real time, so the
// app's clock and the merchant's agree on what "today" is), card orders placed through the app and
// completed, a second client on the same account (a plain HTTPS client with the same key) that places
// foreign orders, and the control calls that change an order behind the app's back.
import { randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { expect } from 'vitest';
import { goodCard, fen, type Catalog } from '../../support/orders-harness';
import { orderDetailWhen, type AppKit, type Merchant } from '../app/app-kit';

export interface WireOrder {
  clientOrderRef: string;
  state: string;
  units: number;
  totalAmount: number;
  allowedActions: string[];
  card_list: { card_no: string; card_password: string }[] | null;
}

export const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The second client: the account's key over plain HTTPS, as another program of the buyer would use it. */
export function secondClient(merchant: Merchant, account: { userId: string; apiKey: string }) {
  const call = <T,>(method: string, path: string, body?: unknown): Promise<{ status: number; code: number; data: T }> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        new URL(merchant.sandbox.baseUrl + path),
        { method, ca: merchant.caCertPem, agent: false, headers: { 'X-Service-User-Id': account.userId, 'X-Service-Key': account.apiKey, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            const parsed = JSON.parse(text) as { code: number; data: T };
            resolve({ status: res.statusCode ?? 0, code: parsed.code, data: parsed.data });
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  return {
    /** A card order placed elsewhere with the same account. */
    async placeForeign(catalog: Catalog, units = 1): Promise<WireOrder> {
      const pick = catalog.find((p, v) => goodCard(p, v), 'a card that is supplied');
      const ref = `EXT-${randomBytes(6).toString('hex')}`;
      const body = { clientOrderRef: ref, productRef: pick.product.productRef, ...(pick.product.variants.length > 1 ? { variantRef: pick.variant.variantRef } : {}), units };
      let answer = await call<WireOrder>('POST', '/orders/create', body);
      // The account's burst is shared with the app: wait as a careful client does, same ref.
      for (let i = 0; answer.code === 429001 && i < 20; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        answer = await call<WireOrder>('POST', '/orders/create', body);
      }
      expect(answer.code, JSON.stringify(answer)).toBe(0);
      return answer.data;
    },
    async order(ref: string): Promise<{ status: number; code: number; data: WireOrder }> {
      let answer = await call<WireOrder>('GET', `/orders/${ref}`);
      for (let i = 0; answer.code === 429001 && i < 20; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        answer = await call<WireOrder>('GET', `/orders/${ref}`);
      }
      expect(answer.code, JSON.stringify(answer)).toBe(0);
      return answer;
    },
  };
}

/** A card order placed through the app and accepted (pending at the merchant). */
export async function placeCard(kit: AppKit, catalog: Catalog, units: number): Promise<string> {
  const pick = catalog.find((p, v) => goodCard(p, v), 'a card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units, unitPriceFen: fen(pick.variant.price) });
  await orderDetailWhen(kit, placed.clientOrderRef, 'acceptance', (d) => d.intentStatus === 'accepted');
  return placed.clientOrderRef;
}

/** Completes an accepted order at the merchant, then reads it as the buyer would (its cards into the vault). */
export async function complete(kit: AppKit, merchant: Merchant, ref: string): Promise<void> {
  await merchant.advance(ref, 'processing');
  await merchant.advance(ref, 'completed');
  await kit.ok('orders.refresh', { clientOrderRef: ref });
}

export async function placeCompletedCard(kit: AppKit, merchant: Merchant, catalog: Catalog, units: number): Promise<string> {
  const ref = await placeCard(kit, catalog, units);
  await complete(kit, merchant, ref);
  const detail = await kit.ok('orders.get', { clientOrderRef: ref });
  expect(detail.cards).toHaveLength(units);
  return ref;
}

/** Changes an order behind the app's back (no webhook, no ledger entry): docs/sandbox.md. */
export async function tamper(merchant: Merchant, ref: string, change: Record<string, unknown>): Promise<WireOrder> {
  return merchant.control<WireOrder>('POST', `/control/orders/${ref}/tamper`, change);
}
