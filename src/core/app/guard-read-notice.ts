// The price guard's product read reaches the screens (contract §7.7, §15.4): right before a send it
// stores GET /goods/{productRef} in the catalog cache, so an intent that moved (sent, or parked as
// unavailable or price_changed) names a product whose cached price and stock may have just changed.
// Those products are announced as catalog.changed, so link cards, compare rows and offers re-read now.
import type { OrderTransition } from './change-watch';

/** The statuses an intent reaches only after the guard read its product (a send, or a park by that read). */
const AFTER_GUARD_READ: ReadonlySet<string> = new Set(['sending', 'accepted', 'rejected', 'unknown', 'price_changed', 'unavailable', 'needs_confirmation']);

/** The products the guard may just have read, once each; empty when no intent got past (or parked by) it. */
export function productsReadByGuard(transitions: readonly OrderTransition[]): number[] {
  const refs = new Set<number>();
  for (const t of transitions) {
    if (t.intentStatus !== t.previousIntentStatus && AFTER_GUARD_READ.has(t.intentStatus)) refs.add(t.productRef);
  }
  return [...refs];
}
