// Shared pieces of the order, refund, webhook and after-sales conformance files: typed views of the
// wire objects of docs/contract.md, account and catalog helpers over the control API, and a caller
// that waits out plain quota refusals (429001) so that a test about order rules is not failed by the
// account's request budget. Per-order cooldown refusals (4291xx) are never retried: tests assert them.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { callApi, control, type ApiResponse, type CallOptions } from './merchant-http';
import { startSandbox, type RunningSandbox } from './sandbox-process';

export interface Account {
  userId: string;
  apiKey: string;
}

/** A running sandbox plus the time scale it was started with (Retry-After is in sandbox seconds). */
export interface Harness {
  sandbox: RunningSandbox;
  timeScale: number;
}

export interface Refund {
  refundRef: string;
  clientRefundRef: string;
  amount: number;
  state: string;
  reason: string | null;
  createdAt: number;
  resolvedAt: number | null;
}

export interface Card {
  card_no: string;
  card_password: string;
  expiresAt: number | null;
}

export interface Order {
  clientOrderRef: string;
  platformOrderRef: string;
  productRef: number;
  variantRef: number;
  productName: string;
  variantTitle: string;
  productType: string;
  units: number;
  unitPrice: number;
  totalAmount: number;
  refundedAmount: number;
  state: string;
  allowedActions: string[];
  revision: number;
  failureReason: string | null;
  verificationHint: string | null;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  orderCallbackUrl: string | null;
  imageUrl: string | null;
  entryCount: number;
  refunds: Refund[];
  card_list: Card[] | null;
}

export interface ListPayload<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface ControlVariant {
  variantRef: number;
  title: string;
  price: number | string;
  availability: string;
  inventoryType: string;
  remainingUnits: number | null;
  supply: string;
  entryMode: string;
  purchaseSchemaRevision: number;
}

export interface ControlProduct {
  productRef: number;
  productType: string;
  name: string;
  catalogRef: number;
  availability: string;
  revision: number;
  variants: ControlVariant[];
}

export interface PurchaseField {
  fieldRef: string;
  label: string;
  type: string;
  required: boolean;
  pattern: string | null;
  minLength: number | null;
  maxLength: number | null;
  options: { value: string; label: string }[] | null;
  placeholder: string | null;
  sensitive: boolean;
}

export interface Template {
  productRef: number;
  variantRef: number;
  productType: string;
  purchaseSchemaRevision: number;
  entryMode: string;
  purchaseFields: PurchaseField[];
  unitRule: { min: number; max: number; step: number };
}

export interface LedgerEntry {
  kind: string;
  clientOrderRef: string;
  amount: string | number;
  at: number;
}

export interface Ledger {
  balance: string | number;
  entries: LedgerEntry[];
}

export interface Delivery {
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  sentAt: number;
  sentAtMs?: number;
  status: number | null;
  ok: boolean;
  error?: string | null;
}

/** A product with one of its variants, as the control API shows them. */
export interface Pick {
  product: ControlProduct;
  variant: ControlVariant;
}

export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`missing: ${what}`);
  return value;
}

/** Yuan (number or text) as integer fen, so that money is compared exactly. */
export function fen(yuan: number | string): number {
  const value = typeof yuan === 'number' ? yuan : Number(yuan);
  if (!Number.isFinite(value)) throw new Error(`not a yuan amount: ${String(yuan)}`);
  return Math.round(value * 100);
}

export function yuanText(amountFen: number): string {
  return (amountFen / 100).toFixed(2);
}

/** A reference unique across the whole sandbox (the control API addresses orders by clientOrderRef alone). */
export function uid(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Real milliseconds that cover `seconds` of sandbox time, with a margin for scheduling. */
export function sandboxSeconds(h: Harness, seconds: number): number {
  return Math.ceil((seconds * 1000) / h.timeScale) + 150;
}

export async function launch(args: string[], timeScale: number): Promise<Harness> {
  const sandbox = await startSandbox(['--products', '60', '--time-scale', String(timeScale), ...args]);
  return { sandbox, timeScale };
}

export async function newAccount(h: Harness, balance = '100000'): Promise<Account> {
  return control<Account>(h.sandbox, 'POST', '/control/accounts', { balance });
}

export async function setAccount(h: Harness, account: Account, change: Record<string, unknown>): Promise<void> {
  await control(h.sandbox, 'POST', `/control/accounts/${account.userId}`, change);
}

/** Calls the OpenAPI as `account`; a 429 with the plain quota code is waited out (Retry-After, in sandbox seconds). */
export async function api<T = unknown>(
  h: Harness,
  account: Account,
  method: string,
  path: string,
  options: Omit<CallOptions, 'auth'> = {},
): Promise<ApiResponse<T>> {
  for (let attempt = 0; ; attempt++) {
    const res = await callApi<T>(h.sandbox, method, path, { ...options, auth: account });
    if (res.status !== 429 || res.json?.code !== 429001 || attempt >= 30) return res;
    const retryAfter = Number(res.headers['retry-after'] ?? '1');
    await sleep(sandboxSeconds(h, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1));
  }
}

/** Asserts a success envelope and returns its data. */
export function ok<T>(res: ApiResponse<T>): T {
  expect({ status: res.status, code: res.json?.code }, `body: ${res.text.slice(0, 300)}`).toEqual({ status: 200, code: 0 });
  return must(res.json, 'envelope').data;
}

/** Asserts an error envelope of interface v1 §7.1: the status, the code, data null and a requestId. */
export function expectError(res: ApiResponse, status: number, code: number): void {
  expect({ status: res.status, code: res.json?.code }, `body: ${res.text.slice(0, 300)}`).toEqual({ status, code });
  expect(res.json?.data).toBeNull();
  expect(typeof res.json?.requestId).toBe('string');
}

export async function controlProducts(h: Harness): Promise<ControlProduct[]> {
  return control<ControlProduct[]>(h.sandbox, 'GET', '/control/products?limit=1000');
}

export async function controlProduct(h: Harness, productRef: number): Promise<ControlProduct> {
  const all = await controlProducts(h);
  return must(
    all.find((p) => p.productRef === productRef),
    `control product ${productRef}`,
  );
}

export async function changeProduct(h: Harness, productRef: number, change: Record<string, unknown>): Promise<void> {
  await control(h.sandbox, 'POST', `/control/products/${productRef}`, change);
}

/**
 * Picks a product variant matching `predicate` that no other test of the file has claimed, so that
 * catalog changes made by one test (availability, stock, template revision) cannot leak into another.
 */
export class Catalog {
  private readonly claimed = new Set<string>();
  constructor(public readonly products: ControlProduct[]) {}

  find(predicate: (product: ControlProduct, variant: ControlVariant) => boolean, what: string, claim = false): Pick {
    for (const product of this.products) {
      for (const variant of product.variants) {
        const key = `${product.productRef}/${variant.variantRef}`;
        if (this.claimed.has(key) || !predicate(product, variant)) continue;
        if (claim) for (const v of product.variants) this.claimed.add(`${product.productRef}/${v.variantRef}`);
        return { product, variant };
      }
    }
    throw new Error(`the seeded catalog has no ${what}`);
  }

  /** Like find, but reserves the whole product for the calling test. */
  claim(predicate: (product: ControlProduct, variant: ControlVariant) => boolean, what: string): Pick {
    return this.find(predicate, what, true);
  }
}

export const isOpen = (p: ControlProduct, v: ControlVariant): boolean => p.availability === 'available' && v.availability === 'available';

/** Plenty of stock, so that a test ordering it never runs into 422102. */
export const hasStock = (v: ControlVariant): boolean => v.inventoryType === 'unlimited' || (v.remainingUnits ?? 0) >= 50;

export const isCard = (p: ControlProduct): boolean => p.productType === 'card';
export const isTopup = (p: ControlProduct): boolean => p.productType === 'topup';

/** An orderable card variant that the sandbox supplies successfully. */
export const goodCard = (p: ControlProduct, v: ControlVariant): boolean => isCard(p) && isOpen(p, v) && hasStock(v) && v.supply === 'succeed';

export async function template(h: Harness, account: Account, pick: Pick): Promise<Template> {
  const query: Record<string, number> = { productRef: pick.product.productRef };
  if (pick.product.variants.length > 1) query.variantRef = pick.variant.variantRef;
  return ok(await api<Template>(h, account, 'GET', '/goods/tpl', { query }));
}

/** A value accepted by a template field; throws when none of the candidates fits, so the test says why. */
export function validValue(field: PurchaseField): string {
  if (field.type === 'select') return must(field.options?.[0]?.value, `options of ${field.fieldRef}`);
  const byType: Record<string, string[]> = {
    mobile: ['13800138000', '13912345678'],
    email: ['buyer@example.com', 'a1@example.cn'],
    integer: ['12345', '1', '10', '100'],
  };
  const candidates = [...(byType[field.type] ?? []), '12345678', 'abc123', 'user001', '10001', 'Player_01', 'test', 'a', '1'];
  const fits = candidates.find((c) => valueFits(field, c));
  return must(fits, `a valid value for field ${field.fieldRef} (${field.type}, pattern ${String(field.pattern)})`);
}

export function valueFits(field: PurchaseField, value: string): boolean {
  if (field.minLength !== null && value.length < field.minLength) return false;
  if (field.maxLength !== null && value.length > field.maxLength) return false;
  if (field.pattern !== null && !new RegExp(`^(?:${field.pattern})$`).test(value)) return false;
  if (field.type === 'mobile' && !/^1\d{10}$/.test(value)) return false;
  if (field.type === 'integer' && !/^-?\d+$/.test(value)) return false;
  if (field.type === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return false;
  return true;
}

export function validGroup(tpl: Template): Record<string, string> {
  return Object.fromEntries(tpl.purchaseFields.map((f) => [f.fieldRef, validValue(f)]));
}

/** The purchaseEntries a template asks for when ordering `units`. */
export function validEntries(tpl: Template, units: number): Record<string, string>[] {
  if (tpl.entryMode === 'single') return [validGroup(tpl)];
  if (tpl.entryMode === 'perUnit') return Array.from({ length: units }, () => validGroup(tpl));
  return [];
}

/** A complete, valid create body for `pick` (top-ups get their revision and entries). */
export function orderBody(pick: Pick, tpl: Template, clientOrderRef: string, units = tpl.unitRule.min): Record<string, unknown> {
  const body: Record<string, unknown> = { clientOrderRef, productRef: pick.product.productRef, units };
  if (pick.product.variants.length > 1) body.variantRef = pick.variant.variantRef;
  if (pick.product.productType === 'topup') {
    body.purchaseSchemaRevision = tpl.purchaseSchemaRevision;
    body.purchaseEntries = validEntries(tpl, units);
  }
  return body;
}

export async function createOrder(h: Harness, account: Account, body: unknown): Promise<ApiResponse<Order>> {
  return api<Order>(h, account, 'POST', '/orders/create', { body });
}

export async function getOrder(h: Harness, account: Account, clientOrderRef: string): Promise<Order> {
  return ok(await api<Order>(h, account, 'GET', `/orders/${clientOrderRef}`));
}

export async function advance(h: Harness, clientOrderRef: string, to: string): Promise<Order> {
  return control<Order>(h.sandbox, 'POST', `/control/orders/${clientOrderRef}/advance`, { to });
}

export async function ledger(h: Harness, account: Account): Promise<Ledger> {
  return control<Ledger>(h.sandbox, 'GET', `/control/ledger/${account.userId}`);
}

export async function accountBalanceFen(h: Harness, account: Account): Promise<number> {
  const data = ok(await api<{ balance: number }>(h, account, 'GET', '/account'));
  return fen(data.balance);
}

export function entriesFor(book: Ledger, clientOrderRef: string, kind?: string): LedgerEntry[] {
  return book.entries.filter((e) => e.clientOrderRef === clientOrderRef && (kind === undefined || e.kind === kind));
}

export async function deliveries(h: Harness): Promise<Delivery[]> {
  return control<Delivery[]>(h.sandbox, 'GET', '/control/deliveries');
}

export async function setFaults(h: Harness, faults: Record<string, unknown>): Promise<void> {
  await control(h.sandbox, 'POST', '/control/faults', faults);
}

/** Polls an order (at a modest rate, interface v1 §7.5) until `predicate` holds, or fails with the last state seen. */
export async function waitForOrder(h: Harness, account: Account, clientOrderRef: string, predicate: (o: Order) => boolean, timeoutMs = 15_000): Promise<Order> {
  const deadline = Date.now() + timeoutMs;
  let last: Order | undefined;
  while (Date.now() < deadline) {
    last = await getOrder(h, account, clientOrderRef);
    if (predicate(last)) return last;
    await sleep(150);
  }
  throw new Error(`order ${clientOrderRef} did not reach the expected state; last seen: ${JSON.stringify(last)}`);
}

export const sorted = (values: readonly string[]): string[] => [...values].sort();
