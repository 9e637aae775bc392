// A price the merchant stated outside a product snapshot: the unit price it charged in its answer to a
// create (or in the look-up that resolved a create whose answer was lost).
// Snapshots (sync, opener, product.changed, the price guard's read) reach price_history through the
// variants triggers of 0001; this is the one other way in, so that every price the app learns is in the
// history. Availability, inventory type and stock are the latest recorded: an order says nothing of them.
import type { Database } from 'better-sqlite3';

export interface LearnedPrice {
  readonly productRef: number;
  readonly variantRef: number;
  readonly priceFen: number;
  /**
   * When the merchant stated it, if not just now (a look-up's order: its createdAt): a reading recorded
   * after that is newer news, and the order's price is not put after it. null: the answer to a create.
   */
  readonly statedAtS: number | null;
}

/** Adds a history row at `atS` when the price differs from the variant's latest (and older) one; true when it did. A variant never recorded is left alone. */
export function recordLearnedPrice(db: Database, learned: LearnedPrice, atS: number): boolean {
  const latest = db
    .prepare<[number, number], { price_fen: number; availability: string; inventory_type: string; remaining_units: number | null; recorded_at: number }>(
      'SELECT price_fen, availability, inventory_type, remaining_units, recorded_at FROM price_history WHERE product_ref = ? AND variant_ref = ? ORDER BY id DESC LIMIT 1',
    )
    .get(learned.productRef, learned.variantRef);
  if (latest === undefined || latest.price_fen === learned.priceFen) return false;
  if (learned.statedAtS !== null && latest.recorded_at > learned.statedAtS) return false;
  db.prepare(
    'INSERT INTO price_history (product_ref, variant_ref, price_fen, availability, inventory_type, remaining_units, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(learned.productRef, learned.variantRef, learned.priceFen, latest.availability, latest.inventory_type, latest.remaining_units, Math.max(atS, latest.recorded_at));
  return true;
}
