// Orders written straight into a migrated database on disk, as the order store leaves them: an intent
// the merchant accepted and its order row. Only the columns the books read are chosen; the rest are
// what any accepted order has.
import type { Database } from 'better-sqlite3';

export interface OrderSeed {
  readonly ref: string;
  readonly productRef: number;
  readonly productType?: string;
  readonly state: string;
  readonly totalFen: number;
  readonly refundedFen?: number;
  /** Merchant seconds. */
  readonly createdAt: number;
  readonly completedAt?: number | null;
  readonly productName?: string | null;
}

export function seedOrder(db: Database, o: OrderSeed): void {
  db.prepare(
    `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, status, created_at, updated_at)
     VALUES (?, ?, 0, ?, 1, 'accepted', ?, ?)`,
  ).run(o.ref, o.productRef, o.productType ?? 'card', o.createdAt, o.createdAt);
  db.prepare(
    `INSERT INTO orders (client_order_ref, platform_order_ref, product_ref, variant_ref, product_name, product_type, units, unit_price_fen, total_fen,
       refunded_fen, state, revision, created_at, updated_at, completed_at, detail_json, fetched_at)
     VALUES (?, ?, ?, 0, ?, ?, 1, ?, ?, ?, ?, 1, ?, ?, ?, '{}', ?)`,
  ).run(o.ref, `P${o.ref}`, o.productRef, o.productName ?? null, o.productType ?? 'card', o.totalFen, o.totalFen, o.refundedFen ?? 0, o.state, o.createdAt, o.createdAt, o.completedAt ?? null, o.createdAt);
}

/** A cached product in a category (for the category grouping and filter). */
export function seedProduct(db: Database, productRef: number, catalogRef: number, name: string, categoryName: string): void {
  db.prepare('INSERT OR IGNORE INTO categories (catalog_ref, name, synced_at) VALUES (?, ?, 0)').run(catalogRef, categoryName);
  db.prepare("INSERT INTO products (product_ref, catalog_ref, name, product_type, availability, synced_at) VALUES (?, ?, ?, 'card', 'available', 0)").run(productRef, catalogRef, name);
}
