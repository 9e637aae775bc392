// Connecting to a different merchant account than the one this data folder worked with. The app
// serves one merchant at a time (DESIGN.md), and its catalog cache, watched products and sync state
// belong to that merchant: shown under another one they would be wrong products at wrong prices, and
// an order placed from them would buy something else. So the cache is dropped and synced afresh.
//
// Work still open with the old account cannot follow it: a queued order would be sent to the new
// merchant (buying who knows what), an unfinished order or refund would be polled with credentials
// that do not know it. So the switch is refused while any is open, with the counts, until the buyer
// finishes or withdraws them. What is finished stays: orders, refunds, cards in the vault, after-sales
// cases and the audit trail are the buyer's history and are never deleted here.
//
// "Different" means another address or user ID, or an accountRef that changed under the same ones.
// accountRef alone cannot say it: it is only unique within one merchant (two merchants can both have
// account 1 with user 170001). A merchant that moves to a new address is therefore treated as a
// switch too: its cache is synced again (harmless) and open work must be finished first (safe).
import type { Database } from 'better-sqlite3';

export interface MerchantIdentity {
  readonly baseUrl: string;
  readonly userId: string;
  /** The account's ref from GET /account; null for a connection stored before it was recorded. */
  readonly accountRef: number | null;
}

export function isSameAccount(previous: MerchantIdentity, next: MerchantIdentity): boolean {
  if (previous.baseUrl !== next.baseUrl || previous.userId !== next.userId) return false;
  return previous.accountRef === null || next.accountRef === null || previous.accountRef === next.accountRef;
}

export interface OpenWork {
  /** Orders not yet accepted or refused by the merchant (queued, sending, unknown, awaiting confirmation). */
  readonly orderIntents: number;
  /** Accepted orders whose supply is not over (pending, processing, verifying, or a state we do not know). */
  readonly orders: number;
  /** Refunds asked for and not yet decided, or not yet sent. */
  readonly refunds: number;
  /** After-sales messages not yet accepted by the merchant, and cases being opened. */
  readonly aftersales: number;
}

export function openWork(db: Database): OpenWork {
  const count = (sql: string): number => db.prepare<[], { n: number }>(sql).get()?.n ?? 0;
  return {
    // Parked ones (needs_confirmation, price_changed, unavailable) wait on the buyer; withdrawing ones on a lookup.
    orderIntents: count(
      "SELECT count(*) AS n FROM order_intents WHERE status IN ('queued', 'sending', 'unknown', 'needs_confirmation', 'price_changed', 'unavailable', 'withdrawing', 'needs_key', 'account_suspended', 'access_denied', 'needs_template', 'merchant_failing')",
    ),
    // Unknown states count as open: they are never treated as finished.
    orders: count("SELECT count(*) AS n FROM orders WHERE state NOT IN ('completed', 'failed', 'cancelled', 'refunded')"),
    refunds:
      count("SELECT count(*) AS n FROM refunds WHERE state NOT IN ('succeeded', 'rejected')") +
      count("SELECT count(*) AS n FROM refund_intents WHERE status IN ('queued', 'sending', 'unknown')"),
    aftersales:
      count("SELECT count(*) AS n FROM aftersale_outbox WHERE status IN ('queued', 'sending', 'retrying')") + count('SELECT count(*) AS n FROM aftersale_open_intents'),
  };
}

export const hasOpenWork = (work: OpenWork): boolean => work.orderIntents + work.orders + work.refunds + work.aftersales > 0;

export class MerchantSwitchRefusedError extends Error {
  override readonly name = 'MerchantSwitchRefusedError';
  constructor(readonly work: OpenWork) {
    super(
      `this app still has open work with the merchant account it was connected to (${work.orderIntents} order(s) not yet accepted, ${work.orders} order(s) not finished, ${work.refunds} refund(s) open, ${work.aftersales} after-sales message(s) or case(s) not yet sent): finish or withdraw them before connecting to another account`,
    );
  }
}

/** Drops everything cached from the previous merchant's catalog, in one transaction. */
export function clearMerchantCache(db: Database): void {
  db.transaction(() => {
    // products cascade to variants, templates and price history; triggers keep the search index in step.
    db.prepare('DELETE FROM products').run();
    db.prepare('DELETE FROM categories').run();
    db.prepare('DELETE FROM catalog_sync_state').run();
    db.prepare('DELETE FROM watched_products').run();
  })();
}
