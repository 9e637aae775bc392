// The one place that decides which of the app's merchant callers the buyer is waiting for (contract §8.1,
// "the buyer first"). Interactive requests go ahead of background ones in every quota group and find a
// reserve background work leaves free (quota-model.ts); a caller missing here cannot get a client
// (merchant-services.ts builds each caller's client from this table).
import type { QuotaPriority } from './quota-model';

/** Who sends a merchant request, named for the work it is part of. */
export type MerchantCaller =
  /** Anything the buyer started and watches: opening a product or a template, placing (the outbox and its price guard) or acting on an order, after-sales, the account and balance, the connect test. */
  | 'buyer'
  /** The catalog sync: lists, details, templates. */
  | 'catalogSync'
  /** The watched-product poll, the safety net under product.changed webhooks. */
  | 'watchedPoll'
  /** The order tracker's scheduled polls of accepted orders. */
  | 'orderPoll'
  /** The after-sales worker's scheduled polls of open cases. */
  | 'casePoll'
  /** The webhook side: re-checks of received events, catch-up after a gap, subscription upkeep. */
  | 'webhookSide'
  /** The GET /account that tells paused workers whether access or reach is back (worker-pause.ts). */
  | 'workerProbe'
  /** Reconciliation's list pages and look-ups (contract §12.2): up to a thousand orders read while the buyer goes on working. */
  | 'reconcile';

export const CALLER_PRIORITY: Readonly<Record<MerchantCaller, QuotaPriority>> = {
  buyer: 'interactive',
  catalogSync: 'background',
  watchedPoll: 'background',
  orderPoll: 'background',
  casePoll: 'background',
  // Webhooks are hints nobody waits on; the buyer's own refresh of the same order goes as 'buyer'.
  webhookSide: 'background',
  workerProbe: 'background',
  // The buyer pressed "Reconcile" and watches its progress, but a read of a thousand orders must not
  // starve what they do meanwhile (opening an order, placing one): it yields and leaves the reserve.
  // With nothing else asked it still takes 114 of orderRead's 120 a minute: 10 pages for 1,000 orders.
  reconcile: 'background',
};
