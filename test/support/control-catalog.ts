// The sandbox's control view of its catalog and deliveries (docs/sandbox.md), and helpers that pick
// products by kind from it, so that tests never hard-code productRefs of a seeded catalog.
import { control } from './merchant-http';
import type { RunningSandbox } from './sandbox-process';

export interface ControlVariant {
  variantRef: number;
  title: string;
  /** Yuan; the control API may send it as a string or a number. */
  price: string | number;
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

export interface Delivery {
  eventId: string;
  eventType: string;
  url: string;
  attempt: number;
  sentAt: number;
  sentAtMs: number;
  status: number | null;
  ok: boolean;
  error: string | null;
}

export interface ProductChangeResult {
  revision: number;
  changedProperties: string[];
}

export async function controlProducts(sandbox: RunningSandbox, limit = 1000): Promise<ControlProduct[]> {
  return control<ControlProduct[]>(sandbox, 'GET', `/control/products?limit=${limit}&offset=0`);
}

export async function controlProduct(sandbox: RunningSandbox, productRef: number): Promise<ControlProduct> {
  const all = await controlProducts(sandbox);
  const found = all.find((p) => p.productRef === productRef);
  if (found === undefined) throw new Error(`control has no product ${productRef}`);
  return found;
}

export function changeProduct(sandbox: RunningSandbox, productRef: number, body: Record<string, unknown>): Promise<ProductChangeResult> {
  return control<ProductChangeResult>(sandbox, 'POST', `/control/products/${productRef}`, body);
}

export function deliveries(sandbox: RunningSandbox): Promise<Delivery[]> {
  return control<Delivery[]>(sandbox, 'GET', '/control/deliveries');
}

export function isSingleVariant(p: ControlProduct): boolean {
  return p.variants.length === 1 && p.variants[0]?.variantRef === 0;
}

export function isFullyAvailable(p: ControlProduct): boolean {
  return p.availability === 'available' && p.variants.every((v) => v.availability === 'available');
}

/**
 * The first product matching `predicate` that is not in `used`; it is added to `used` so that
 * tests in one file work on distinct products and do not see each other's webhooks.
 */
export function pickProduct(products: ControlProduct[], used: Set<number>, what: string, predicate: (p: ControlProduct) => boolean): ControlProduct {
  const found = products.find((p) => !used.has(p.productRef) && predicate(p));
  if (found === undefined) throw new Error(`the seeded catalog has no (more) product: ${what}`);
  used.add(found.productRef);
  return found;
}

/** A card product that an order can buy right away: one available variant, enough stock, supplied. */
export function isOrderableCard(p: ControlProduct): boolean {
  const v = p.variants[0];
  return (
    p.productType === 'card' &&
    isSingleVariant(p) &&
    isFullyAvailable(p) &&
    v !== undefined &&
    v.entryMode === 'none' &&
    v.supply === 'succeed' &&
    Number(v.price) <= 200 &&
    (v.inventoryType === 'unlimited' || (v.inventoryType === 'tracked' && (v.remainingUnits ?? 0) >= 10))
  );
}
