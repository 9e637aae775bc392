// What an order's refunds say next to its state and amount, in the list and the detail: a refund in
// progress (core's pending amount, or the request being sent right now), the money back (all of the
// order, or part of it, from the merchant's refundedAmount) and any refund state this build does not
// know, raw. Nothing here is ever success unless the merchant's refundedAmount says money came back.
import type { OrderRow } from '../../../shared/ipc/views/orders';

export type RefundNote =
  | { readonly kind: 'pending'; readonly amountFen: number }
  | { readonly kind: 'refunded'; readonly amountFen: number }
  | { readonly kind: 'partlyRefunded'; readonly amountFen: number; readonly totalFen: number }
  | { readonly kind: 'unknown'; readonly raw: string };

type RefundFacts = Pick<OrderRow, 'totalFen' | 'refundedFen' | 'refundPendingFen' | 'refundUnknownStates'>;

/**
 * `sending`: a request of this order on its way to core (amount null: everything refundable); shown
 * as pending until core's own record of it takes over.
 */
export function refundNotes(order: RefundFacts, sending: { amountFen: number | null } | null = null): RefundNote[] {
  const notes: RefundNote[] = [];
  const refunded = order.refundedFen ?? 0;
  const rest = order.totalFen === null ? 0 : Math.max(0, order.totalFen - refunded);
  const pending = order.refundPendingFen > 0 ? order.refundPendingFen : sending === null ? 0 : (sending.amountFen ?? rest);
  if (pending > 0) notes.push({ kind: 'pending', amountFen: pending });
  if (refunded > 0) {
    notes.push(order.totalFen !== null && refunded < order.totalFen ? { kind: 'partlyRefunded', amountFen: refunded, totalFen: order.totalFen } : { kind: 'refunded', amountFen: refunded });
  }
  for (const raw of order.refundUnknownStates) notes.push({ kind: 'unknown', raw });
  return notes;
}
