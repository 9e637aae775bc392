// The orders still in flight, which quitting the desktop app asks about (contract §17.2): intents the
// outbox will still send and intents sent whose outcome the app does not know yet. Parked ones wait on
// the buyer and accepted ones on the merchant: neither is in flight.
import type { Database } from 'better-sqlite3';
import type { InFlightOrders } from '../../shared/ipc/views/orders';
import { AWAITING_ANSWER_STATUSES, NOT_SENT_STATUSES } from './order-intent-store';

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export function inFlightOrders(db: Database): InFlightOrders {
  const row = db
    .prepare<string[], { notSent: number; awaitingAnswer: number }>(
      `SELECT count(*) FILTER (WHERE status IN (${placeholders(NOT_SENT_STATUSES.length)})) AS notSent,
              count(*) FILTER (WHERE status IN (${placeholders(AWAITING_ANSWER_STATUSES.length)})) AS awaitingAnswer
         FROM order_intents`,
    )
    .get(...NOT_SENT_STATUSES, ...AWAITING_ANSWER_STATUSES);
  return { notSent: row?.notSent ?? 0, awaitingAnswer: row?.awaitingAnswer ?? 0 };
}
