// Notices what changed in the database so the UI can be told: orders (an intent moved, the merchant's
// order moved, cards arrived, a refund moved), watched products (price, availability, stock), and any
// product whose price history grew (a price learned by any writer: the sync, an open, a webhook, the
// price guard's read, an order's answer), so drawers, forms and charts show it without a sync.
//
// Why a watch and not hooks: the outbox and tracker have onChange hooks, but createCore builds them
// without one, and webhooks (the inbox processor) and other processes (the CLI on the same data
// folder) write the same tables. A cheap fingerprint scan of only what can move — intents in flight,
// orders still polled, rows touched since the last scan — catches every writer, at a fixed cost per
// scan. Handlers poke it after their own changes, so the buyer's actions show at once.
import { periodicScan, type PeriodicScan } from '../platform/periodic-scan';
import type { Database } from 'better-sqlite3';
import type { Logger } from '../logging/logger';
import type { Clock } from '../platform/clock';

export interface OrderTransition {
  readonly clientOrderRef: string;
  /** The intent's product at its merchant (the price guard reads it right before a send). */
  readonly productRef: number;
  readonly productName: string | null;
  /** The merchant's order number (null until the merchant answered). */
  readonly platformOrderRef: string | null;
  /** Our intent's status now and before (null: not seen before). */
  readonly intentStatus: string;
  readonly previousIntentStatus: string | null;
  /** The merchant's state now and before (null: not yet known). */
  readonly state: string | null;
  readonly previousState: string | null;
  /** Cards in the vault now and before. */
  readonly cards: number;
  readonly previousCards: number;
  /** What the merchant says was refunded (the amount and each refund's state) now and before (null: not seen before). */
  readonly refunds: string;
  readonly previousRefunds: string | null;
}

export interface WatchedProductChange {
  readonly productRef: number;
  readonly name: string | null;
  /** Price, availability or in-stock flipped: worth a notification, not only a refresh. */
  readonly notable: boolean;
  readonly priceFromFen: number | null;
  readonly previousPriceFromFen: number | null;
}

export interface ChangeWatchOptions {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Real milliseconds between scans; default 500. */
  readonly intervalMs?: number;
  readonly onOrders: (transitions: readonly OrderTransition[]) => void;
  readonly onWatchedProducts: (changes: readonly WatchedProductChange[]) => void;
  /** Products with price history rows recorded since the last scan (empty: too many to name, refresh all). */
  readonly onPricesRecorded?: (productRefs: readonly number[]) => void;
}

/** More products than this in one scan (a sync's pages) are not named one by one. */
const NAMED_PRODUCTS_MAX = 100;

interface OrderScanRow {
  ref: string;
  product_ref: number;
  status: string;
  state: string | null;
  product_name: string | null;
  platform_order_ref: string | null;
  cards: number;
  refunds: string;
  sig: string;
}

interface ProductScanRow {
  product_ref: number;
  name: string | null;
  price_from_fen: number | null;
  head: string;
  stock: string;
}

const ORDER_SCAN = `
  SELECT i.client_order_ref AS ref, i.product_ref AS product_ref, i.status AS status, o.state AS state, coalesce(o.product_name, p.name) AS product_name, o.platform_order_ref,
    (SELECT count(*) FROM cards c WHERE c.client_order_ref = i.client_order_ref) AS cards,
    coalesce(o.refunded_fen, '') || '|' || (SELECT coalesce(group_concat(r.refund_ref || '=' || r.state), '') FROM refunds r WHERE r.client_order_ref = i.client_order_ref) AS refunds,
    i.status || '|' || i.attempts || '|' || coalesce(i.last_error_code, '') || '|' || coalesce(o.revision, '') || '|' ||
    coalesce(o.state, '') || '|' || coalesce(o.refunded_fen, '') || '|' || coalesce(o.allowed_actions_json, '') || '|' ||
    (SELECT count(*) || ':' || coalesce(group_concat(r.refund_ref || '=' || r.state), '') FROM refunds r WHERE r.client_order_ref = i.client_order_ref) || '|' ||
    (SELECT count(*) || ':' || coalesce(group_concat(ri.client_refund_ref || '=' || ri.status), '') FROM refund_intents ri WHERE ri.client_order_ref = i.client_order_ref) AS sig
  FROM order_intents i
  LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref
  LEFT JOIN products p ON p.product_ref = i.product_ref
  WHERE i.updated_at >= @since OR coalesce(o.fetched_at, 0) >= @since OR coalesce(o.last_polled_at, 0) >= @since
     OR i.status IN ('queued', 'sending', 'unknown', 'withdrawing') OR o.next_poll_at IS NOT NULL
     OR EXISTS (SELECT 1 FROM refund_intents ri WHERE ri.client_order_ref = i.client_order_ref AND (ri.status IN ('queued', 'sending', 'unknown') OR ri.updated_at >= @since))
     OR EXISTS (SELECT 1 FROM cards c WHERE c.client_order_ref = i.client_order_ref AND c.received_at >= @since)`;

const PRODUCT_SCAN = `
  SELECT w.product_ref, p.name, p.price_from_fen,
    coalesce(p.availability, '') || '|' || coalesce(p.price_from_fen, '') || '|' ||
      (SELECT coalesce(group_concat(v.variant_ref || ':' || v.price_fen || ':' || v.availability || ':' ||
        (v.inventory_type <> 'tracked' OR coalesce(v.remaining_units, 0) > 0)), '') FROM variants v WHERE v.product_ref = w.product_ref) AS head,
    (SELECT coalesce(group_concat(v.variant_ref || ':' || coalesce(v.remaining_units, '')), '') FROM variants v WHERE v.product_ref = w.product_ref) AS stock
  FROM watched_products w LEFT JOIN products p ON p.product_ref = w.product_ref`;

/** Tells the UI of order and watched-product changes any writer made: a periodic scan of the database (start, stop, poke). */
export type ChangeWatch = PeriodicScan;

export function createChangeWatch(options: ChangeWatchOptions): ChangeWatch {
  const { db, clock, logger } = options;
  const orderScan = db.prepare<{ since: number }, OrderScanRow>(ORDER_SCAN);
  const productScan = db.prepare<[], ProductScanRow>(PRODUCT_SCAN);
  const lastHistoryId = db.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM price_history');
  const historySince = db.prepare<[number, number], { product_ref: number }>('SELECT DISTINCT product_ref FROM price_history WHERE id > ? LIMIT ?');
  let historySeen: number | null = null;
  const orders = new Map<string, OrderScanRow>();
  const products = new Map<number, ProductScanRow>();
  let since: number | null = null;

  const scanOrders = (): void => {
    const baseline = since === null;
    const now = Math.floor(clock.nowMs() / 1000);
    // A little overlap: a row written in the same second as the last scan is looked at again.
    const rows = orderScan.all({ since: baseline ? 0 : (since ?? 0) - 2 });
    since = now;
    const transitions: OrderTransition[] = [];
    for (const row of rows) {
      const before = orders.get(row.ref);
      orders.set(row.ref, row);
      if (baseline || before?.sig === row.sig) continue;
      transitions.push({
        clientOrderRef: row.ref,
        productRef: row.product_ref,
        productName: row.product_name,
        platformOrderRef: row.platform_order_ref,
        intentStatus: row.status,
        previousIntentStatus: before?.status ?? null,
        state: row.state,
        previousState: before?.state ?? null,
        cards: row.cards,
        previousCards: before?.cards ?? 0,
        refunds: row.refunds,
        previousRefunds: before?.refunds ?? null,
      });
    }
    if (transitions.length > 0) options.onOrders(transitions);
  };

  const scanProducts = (): void => {
    const rows = productScan.all();
    const changes: WatchedProductChange[] = [];
    const seen = new Set<number>();
    for (const row of rows) {
      seen.add(row.product_ref);
      const before = products.get(row.product_ref);
      products.set(row.product_ref, row);
      // Newly watched (or first scan): this is the baseline, nothing changed yet.
      if (before === undefined || (before.head === row.head && before.stock === row.stock)) continue;
      changes.push({
        productRef: row.product_ref,
        name: row.name,
        notable: before.head !== row.head,
        priceFromFen: row.price_from_fen,
        previousPriceFromFen: before.price_from_fen,
      });
    }
    for (const ref of [...products.keys()]) if (!seen.has(ref)) products.delete(ref);
    if (changes.length > 0) options.onWatchedProducts(changes);
  };

  const scanPrices = (): void => {
    const newest = lastHistoryId.get()?.id ?? 0;
    const from = historySeen;
    historySeen = newest;
    if (from === null || newest <= from || options.onPricesRecorded === undefined) return;
    const refs = historySince.all(from, NAMED_PRODUCTS_MAX + 1).map((row) => row.product_ref);
    options.onPricesRecorded(refs.length > NAMED_PRODUCTS_MAX ? [] : refs);
  };

  const scan = (): void => {
    try {
      scanOrders();
      scanProducts();
      scanPrices();
    } catch (error) {
      logger.warn('change scan failed', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };

  return periodicScan(scan, options.intervalMs ?? 500);
}
