// Named operations on watched_products (0007): which products the user watches, what the merchant
// last said about each one's subscription, the callback URL it was made with, and when to subscribe
// it next. Times on our clock are Unix seconds; subscription_expires_at is the merchant's.
import type { Database } from 'better-sqlite3';

export interface WatchedProduct {
  readonly productRef: number;
  readonly watchedAt: number;
  /** Raw, as the merchant answered; null before the first successful call. */
  readonly subscriptionState: string | null;
  readonly subscriptionExpiresAt: number | null;
  readonly subscribedAt: number | null;
  readonly callbackUrl: string | null;
  /** When to subscribe next; null = due now. */
  readonly renewAt: number | null;
  readonly attempts: number;
  readonly lastError: string | null;
}

export interface SubscribedRow {
  readonly productRef: number;
  readonly subscriptionState: string;
  readonly subscriptionExpiresAt: number | null;
  readonly renewAt: number;
}

export interface WatchCounts {
  readonly watched: number;
  /** The merchant said `subscribed` with this URL and the expiry (merchant time) is still ahead. */
  readonly subscribed: number;
  /** Due now: never subscribed, or to be subscribed again (URL changed, receiver was down, renewal). */
  readonly due: number;
  /** Whose last subscription call failed. */
  readonly failing: number;
}

interface Row {
  product_ref: number;
  watched_at: number;
  subscription_state: string | null;
  subscription_expires_at: number | null;
  subscribed_at: number | null;
  callback_url: string | null;
  renew_at: number | null;
  attempts: number;
  last_error: string | null;
}

function toWatched(row: Row): WatchedProduct {
  return {
    productRef: row.product_ref,
    watchedAt: row.watched_at,
    subscriptionState: row.subscription_state,
    subscriptionExpiresAt: row.subscription_expires_at,
    subscribedAt: row.subscribed_at,
    callbackUrl: row.callback_url,
    renewAt: row.renew_at,
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

/** The watched_products table: which products are watched, and each one's subscription and renewal. */
export interface ProductWatchStore {
  /** Adds products (already watched ones are left as they are); returns the refs that are new. */
  add(productRefs: readonly number[], now: number): number[];
  /** Forgets products; returns the refs that were watched. */
  remove(productRefs: readonly number[]): number[];
  /** One watched product, or null when it is not watched. */
  get(productRef: number): WatchedProduct | null;
  /** Every watched product, by ref. */
  list(): WatchedProduct[];
  /** The refs of the watched products, ascending. */
  refs(): number[];
  /** Rows whose (re)subscription is due at `now`, most overdue first. */
  due(now: number, limit: number): WatchedProduct[];
  /** The earliest renew_at (0 = something is due now); null when nothing is watched. */
  nextDueAt(): number | null;
  /** One merchant answer for a batch, in one transaction. */
  recordSubscribed(rows: readonly SubscribedRow[], callbackUrl: string, now: number): void;
  /** A failed subscription call for these products: counted, and tried again at `retryAt`. */
  recordFailed(productRefs: readonly number[], error: string, retryAt: number): void;
  /** Everything is to be subscribed again now (a new URL, or deliveries may have failed meanwhile). */
  markAllDue(): void;
  /** Watched, subscribed with this URL (expiry ahead of `merchantNow`), due at `now`, and failing. */
  counts(callbackUrl: string | null, merchantNow: number, now: number): WatchCounts;
}

export function createProductWatchStore(db: Database): ProductWatchStore {
  const insert = db.prepare<[number, number]>('INSERT OR IGNORE INTO watched_products (product_ref, watched_at) VALUES (?, ?)');
  const remove = db.prepare<[number]>('DELETE FROM watched_products WHERE product_ref = ?');
  const selectAll = db.prepare<[], Row>('SELECT * FROM watched_products ORDER BY product_ref');
  const selectOne = db.prepare<[number], Row>('SELECT * FROM watched_products WHERE product_ref = ?');
  const selectRefs = db.prepare<[], number>('SELECT product_ref FROM watched_products ORDER BY product_ref').pluck();
  const selectDue = db.prepare<[number, number], Row>(
    'SELECT * FROM watched_products WHERE coalesce(renew_at, 0) <= ? ORDER BY coalesce(renew_at, 0), product_ref LIMIT ?',
  );
  const selectNextDue = db.prepare<[], { at: number | null }>('SELECT min(coalesce(renew_at, 0)) AS at FROM watched_products');
  const markSubscribed = db.prepare<[string, number | null, number, string, number, number]>(
    `UPDATE watched_products SET subscription_state = ?, subscription_expires_at = ?, subscribed_at = ?, callback_url = ?,
       renew_at = ?, attempts = 0, last_error = NULL
     WHERE product_ref = ?`,
  );
  const markFailed = db.prepare<[string, number, number]>(
    'UPDATE watched_products SET attempts = attempts + 1, last_error = ?, renew_at = ? WHERE product_ref = ?',
  );
  const markAllDue = db.prepare('UPDATE watched_products SET renew_at = NULL');
  const counts = db.prepare<[string | null, number, number], { watched: number; subscribed: number | null; due: number | null; failing: number | null }>(
    `SELECT count(*) AS watched,
            sum(subscription_state = 'subscribed' AND callback_url IS ? AND coalesce(subscription_expires_at, 0) > ?) AS subscribed,
            sum(coalesce(renew_at, 0) <= ?) AS due,
            sum(attempts > 0) AS failing
     FROM watched_products`,
  );

  return {
    /** Adds products (already watched ones are left as they are); returns the refs that are new. */
    add: db.transaction((productRefs: readonly number[], now: number): number[] => productRefs.filter((ref) => insert.run(ref, now).changes === 1)),
    /** Forgets products; returns the refs that were watched. */
    remove: db.transaction((productRefs: readonly number[]): number[] => productRefs.filter((ref) => remove.run(ref).changes === 1)),
    get(productRef: number): WatchedProduct | null {
      const row = selectOne.get(productRef);
      return row === undefined ? null : toWatched(row);
    },
    list: (): WatchedProduct[] => selectAll.all().map(toWatched),
    refs: (): number[] => selectRefs.all(),
    /** Rows whose (re)subscription is due at `now`, most overdue first. */
    due: (now: number, limit: number): WatchedProduct[] => selectDue.all(now, limit).map(toWatched),
    /** The earliest renew_at (0 = something is due now); null when nothing is watched. */
    nextDueAt: (): number | null => selectNextDue.get()?.at ?? null,
    /** One merchant answer for a batch, in one transaction. */
    recordSubscribed: db.transaction((rows: readonly SubscribedRow[], callbackUrl: string, now: number): void => {
      for (const row of rows) markSubscribed.run(row.subscriptionState, row.subscriptionExpiresAt, now, callbackUrl, row.renewAt, row.productRef);
    }),
    recordFailed: db.transaction((productRefs: readonly number[], error: string, retryAt: number): void => {
      for (const ref of productRefs) markFailed.run(error, retryAt, ref);
    }),
    /** Everything is to be subscribed again now (a new URL, or deliveries may have failed meanwhile). */
    markAllDue: (): void => void markAllDue.run(),
    counts(callbackUrl: string | null, merchantNow: number, now: number): WatchCounts {
      const row = counts.get(callbackUrl, merchantNow, now);
      return { watched: row?.watched ?? 0, subscribed: row?.subscribed ?? 0, due: row?.due ?? 0, failing: row?.failing ?? 0 };
    },
  };
}
