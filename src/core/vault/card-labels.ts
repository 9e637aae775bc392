// How an order and a card are named to people outside the vault screen (the audit log): by the
// merchant's order number, the one the buyer knows, and the card by the number the vault shows
// (#1 for the first card, seq 0). The internal clientOrderRef is never the name: before the
// merchant answered, the product and "not yet numbered" stand in for the number.
import type { Database } from 'better-sqlite3';
import { cardNumberLabel } from '../../shared/card-number';
import type { AuditCardName } from '../../shared/ipc/views/audit';

export interface OrderNaming {
  readonly platformOrderRef: string | null;
  readonly productName: string | null;
  readonly productRef: number | null;
}

export function orderLabel(order: OrderNaming): string {
  if (order.platformOrderRef !== null && order.platformOrderRef !== '') return order.platformOrderRef;
  const product = order.productName ?? (order.productRef === null ? 'an order' : `product ${order.productRef}`);
  return `${product} (not yet numbered)`;
}

/** The vault's card number (shared/card-number.ts: #1 for seq 0), after the order's number. */
export function cardLabel(order: OrderNaming, seq: number): string {
  return `${orderLabel(order)} ${cardNumberLabel(seq)}`;
}

/** How the vault and the audit log name orders and cards. */
export interface CardLabels {
  /** What names the order: the merchant's order number, else the product. */
  naming: (clientOrderRef: string) => OrderNaming;
  /** The order as the vault and the audit log name it. */
  order(clientOrderRef: string): string;
  /** One card of the order as the vault and the audit log name it (#1 first). */
  card(clientOrderRef: string, seq: number): string;
  /** The card as facts for an audit row (the screen words and numbers it). */
  cardName(clientOrderRef: string, seq: number): AuditCardName;
}

export function createCardLabels(db: Database): CardLabels {
  const naming = db.prepare<[string], { platform_order_ref: string | null; product_name: string | null; product_ref: number }>(
    `SELECT o.platform_order_ref, coalesce(o.product_name, p.name) AS product_name, i.product_ref
     FROM order_intents i LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref LEFT JOIN products p ON p.product_ref = i.product_ref
     WHERE i.client_order_ref = ?`,
  );
  const namingOf = (clientOrderRef: string): OrderNaming => {
    const row = naming.get(clientOrderRef);
    return { platformOrderRef: row?.platform_order_ref ?? null, productName: row?.product_name ?? null, productRef: row?.product_ref ?? null };
  };
  return {
    naming: namingOf,
    order: (clientOrderRef: string): string => orderLabel(namingOf(clientOrderRef)),
    card: (clientOrderRef: string, seq: number): string => cardLabel(namingOf(clientOrderRef), seq),
    cardName: (clientOrderRef: string, seq: number): AuditCardName => ({ order: { ...namingOf(clientOrderRef) }, seq }),
  };
}

