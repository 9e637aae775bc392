// 0007 watched products: the products the user watches and their subscriptions (interface v1 §3.2,
// contract §6).
//
// Why it looks like this:
// - One row per watched product. subscription_state is the merchant's raw answer (an unknown value
//   is kept, never taken for "subscribed"); subscription_expires_at is the merchant's Unix seconds.
// - callback_url is the address the subscription was made with: product.changed messages go to the
//   subscription's bound address (interface v1 §6.2), so a row whose URL is not the live one must be
//   subscribed again. It holds the receiver's capability token, like the rest of this local file.
// - renew_at is when to (re)subscribe next, on our clock; NULL means due now (just watched, or the
//   URL changed, or the receiver was down: three failed deliveries cancel a subscription, 6.4.7).
//   The index on coalesce(renew_at, 0) finds the due rows without scanning the rest.
// - attempts and last_error count failed subscription calls in a row, for backoff and the UI.
// - No foreign key to products: a product can be watched before the cache holds it; the catch-up
//   fetches its detail anyway.
import type { Migration } from '../migration';

export const watchedProductsMigration: Migration = {
  id: 7,
  name: 'watched-products',
  sql: `
CREATE TABLE watched_products (
  product_ref INTEGER PRIMARY KEY CHECK (product_ref > 0),
  watched_at INTEGER NOT NULL,
  subscription_state TEXT,
  subscription_expires_at INTEGER,
  subscribed_at INTEGER,
  callback_url TEXT CHECK (callback_url IS NULL OR length(callback_url) BETWEEN 1 AND 2048),
  renew_at INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error TEXT,
  CHECK ((subscribed_at IS NULL) = (subscription_state IS NULL))
) STRICT;
CREATE INDEX watched_products_due ON watched_products (coalesce(renew_at, 0));
`,
};
