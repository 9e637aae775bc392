// The orders still in flight, which quitting the desktop app asks about (contract §17.2): intents the
// outbox will still send (queued, or waiting for a template while the merchant is away) and intents
// sent whose outcome the app does not know yet (a create on the wire, an unknown answer, a withdraw
// being looked up). Parked ones wait on the buyer and accepted ones on the merchant: neither is in flight.
import type { Database } from 'better-sqlite3';
import type { InFlightOrders } from '../../shared/ipc/views/orders';

export function inFlightOrders(db: Database): InFlightOrders {
  const row = db
    .prepare<[], { notSent: number; awaitingAnswer: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('queued', 'needs_template')) AS notSent,
              count(*) FILTER (WHERE status IN ('sending', 'unknown', 'withdrawing')) AS awaitingAnswer
         FROM order_intents`,
    )
    .get();
  return { notSent: row?.notSent ?? 0, awaitingAnswer: row?.awaitingAnswer ?? 0 };
}
