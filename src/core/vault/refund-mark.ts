// Which cards carry a refund mark, decided in one place from the merchant's order as last
// authenticated (the `orders` row: a webhook alone never changes it). The SQL expression is used by
// every statement that lists, counts, filters or exports cards, and by the reveal/copy guard, so the
// mark the buyer sees, the filter, the preview's count and the refusal can never disagree.
import type { Database } from 'better-sqlite3';
import type { CardRefundMark } from '../../shared/ipc/views/vault';

/**
 * Over `orders o` (LEFT JOINed: no row yet means no mark): `refunded` and `cancelled` are the
 * merchant's states (contract §7.2); a `completed` order with money back is `partlyRefunded`. Any
 * other state (an unknown one included) is no mark: it is not evidence of a refund.
 */
export const REFUND_MARK_SQL = `CASE
    WHEN o.state = 'refunded' THEN 'refunded'
    WHEN o.state = 'cancelled' THEN 'cancelled'
    WHEN o.state = 'completed' AND o.refunded_fen > 0 THEN 'partlyRefunded'
    ELSE NULL END`;

/** What the buyer is asked to acknowledge, in the error's words (audit rows store the mark itself). */
const REFUND_MARK_WORDS: Readonly<Record<CardRefundMark, string>> = {
  refunded: 'order refunded',
  cancelled: 'order cancelled',
  partlyRefunded: 'order partly refunded',
};

export function isRefundMark(value: string | null): value is CardRefundMark {
  return value === 'refunded' || value === 'cancelled' || value === 'partlyRefunded';
}

/** A reveal, copy or export that touches marked cards without the buyer's acknowledgement. */
export class RefundedCardsError extends Error {
  override readonly name = 'RefundedCardsError';
  constructor(
    readonly count: number,
    readonly marks: readonly CardRefundMark[],
  ) {
    const which = marks.map((m) => REFUND_MARK_WORDS[m]).join(', ');
    super(`${count === 1 ? 'the card belongs' : `${count} cards belong`} to an order the merchant took money back for (${which}): it may no longer be honoured; confirm to go on`);
  }
}

/** The mark of one order's cards, or null. */
export function createRefundMarkReader(db: Database) {
  const one = db.prepare<[string], { mark: string | null }>(`SELECT ${REFUND_MARK_SQL} AS mark FROM orders o WHERE o.client_order_ref = ?`);
  return (clientOrderRef: string): CardRefundMark | null => {
    const mark = one.get(clientOrderRef)?.mark ?? null;
    return isRefundMark(mark) ? mark : null;
  };
}
