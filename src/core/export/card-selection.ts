// Which cards a selection means, as SQL over the vault: `cards` joined with the order intent (always
// there), the merchant's order as last seen (price, order time, names) and the catalog cache (names
// while the merchant has not answered). One set of named statements serves the vault list, the
// export preview and the export itself, so the list the buyer looked at, the count the dialog
// showed and the file written can never mean different cards.
//
// Every filter is a bound parameter that is NULL when unused, so there is one fixed statement per
// purpose (no SQL assembled from input). Picked cards travel as one JSON array, matched with a row
// value IN over json_each (an ephemeral index, so 20,000 picks stay a single pass).
import type { Database } from 'better-sqlite3';
import { AUDIT_NAMED_CARDS, type AuditSubject } from '../../shared/ipc/views/audit';
import type { CardKey, CardSelection, VaultRefundFilter } from '../../shared/ipc/views/vault';
import { cardLabel, orderLabel, type OrderNaming } from '../vault/card-labels';
import { REFUND_MARK_SQL } from '../vault/refund-mark';

/** A selection's filters plus the list's own (used, exported, text), all combined with AND. */
export interface CardFilter {
  readonly selection?: CardSelection | undefined;
  readonly used?: boolean | undefined;
  readonly exported?: boolean | undefined;
  readonly text?: string | undefined;
  /** valid: cards without a refund mark; refunded: cards with one; absent: both. */
  readonly refund?: VaultRefundFilter | undefined;
}

export class SelectionError extends Error {
  override readonly name = 'SelectionError';
}

/** Named parameters of every statement here; null = that filter is off. SQLite has no booleans: 0/1. */
interface FilterParams {
  cards: string | null;
  orderRef: string | null;
  productRef: number | null;
  receivedFrom: number | null;
  receivedTo: number | null;
  exported: 0 | 1 | null;
  used: 0 | 1 | null;
  text: string | null;
  refund: 'valid' | 'refunded' | null;
}

const FROM = `
  FROM cards c
  JOIN order_intents i ON i.client_order_ref = c.client_order_ref
  LEFT JOIN orders o ON o.client_order_ref = c.client_order_ref
  LEFT JOIN products p ON p.product_ref = i.product_ref
  LEFT JOIN variants v ON v.product_ref = i.product_ref AND v.variant_ref = i.variant_ref`;

const WHERE = `
  WHERE (@cards IS NULL OR (c.client_order_ref, c.seq) IN
          (SELECT json_extract(value, '$.clientOrderRef'), json_extract(value, '$.seq') FROM json_each(@cards)))
    AND (@orderRef IS NULL OR c.client_order_ref = @orderRef)
    AND (@productRef IS NULL OR i.product_ref = @productRef)
    AND (@receivedFrom IS NULL OR c.received_at >= @receivedFrom)
    AND (@receivedTo IS NULL OR c.received_at < @receivedTo)
    AND (@exported IS NULL OR (c.exported_at IS NOT NULL) = @exported)
    AND (@used IS NULL OR (c.used_at IS NOT NULL) = @used)
    AND (@text IS NULL OR instr(lower(coalesce(o.product_name, p.name, '') || ' ' || coalesce(o.variant_title, v.title, '') || ' ' ||
          c.client_order_ref || ' ' || coalesce(o.platform_order_ref, '')), @text) > 0)
    AND (@refund IS NULL OR ((${REFUND_MARK_SQL}) IS NOT NULL) = (@refund = 'refunded'))`;

/** What every row carries besides the secrets. */
const COLUMNS = `
  c.id, c.client_order_ref, c.seq, i.product_ref, o.platform_order_ref,
  coalesce(o.product_name, p.name) AS product_name, coalesce(o.variant_title, v.title) AS variant_title,
  o.unit_price_fen, coalesce(o.created_at, i.created_at) AS ordered_at,
  c.expires_at, c.received_at, c.used_at, c.exported_at, c.card_password_sealed IS NOT NULL AS has_password,
  ${REFUND_MARK_SQL} AS refund_mark`;

export interface SelectedCardRow {
  id: number;
  client_order_ref: string;
  seq: number;
  product_ref: number;
  platform_order_ref: string | null;
  product_name: string | null;
  variant_title: string | null;
  unit_price_fen: number | null;
  ordered_at: number | null;
  expires_at: number | null;
  received_at: number;
  used_at: number | null;
  exported_at: number | null;
  has_password: 0 | 1;
  /** See REFUND_MARK_SQL: refunded, cancelled, partlyRefunded, or null. */
  refund_mark: string | null;
}

/** A row with the sealed secrets: only read by the export, which opens them in main. */
export interface SealedCardRow extends SelectedCardRow {
  card_no_sealed: Buffer;
  card_password_sealed: Buffer | null;
}

export interface SelectionSummary {
  count: number;
  valueFen: number;
  orders: number;
  exported: number;
  refunded: number;
}

const flag = (value: boolean | undefined): 0 | 1 | null => (value === undefined ? null : value ? 1 : 0);

/** Checks what the schema cannot (a range that ends before it starts) and turns it into parameters. */
function filterParams(filter: CardFilter): FilterParams {
  const s = filter.selection;
  if (s?.kind === 'dateRange' && s.to <= s.from) throw new SelectionError('the date range ends before it starts');
  const text = filter.text?.trim().toLowerCase() ?? '';
  return {
    cards: s?.kind === 'cards' ? JSON.stringify(s.cards.map((k: CardKey) => ({ clientOrderRef: k.clientOrderRef, seq: k.seq }))) : null,
    orderRef: s?.kind === 'order' ? s.clientOrderRef : null,
    productRef: s?.kind === 'product' ? s.productRef : null,
    receivedFrom: s?.kind === 'dateRange' ? s.from : null,
    receivedTo: s?.kind === 'dateRange' ? s.to : null,
    // "Not yet exported" is the selection; an explicit list filter on top may narrow it further.
    exported: s?.kind === 'notExported' && filter.exported === undefined ? 0 : flag(filter.exported),
    used: flag(filter.used),
    text: text === '' ? null : text,
    refund: filter.refund ?? null,
  };
}

/** Card selections of the vault (filters over stored cards), read for the list and the export. */
export interface CardQueries {
  /** Count, value, orders, already-exported and refund-marked cards of the selection. */
  summary(filter: CardFilter): SelectionSummary;
  /** One page of selected rows, newest first, with the sealed card number (the caller masks it). */
  page(filter: CardFilter, offset: number, limit: number): (SelectedCardRow & {
      card_no_sealed: Buffer;
  })[];
  /** Every selected row with its sealed secrets: only for the export, which opens them. */
  sealedRows(filter: CardFilter): SealedCardRow[];
}

export function createCardQueries(db: Database): CardQueries {
  const summary = db.prepare<FilterParams, { count: number; value: number; orders: number; exported: number; refunded: number }>(
    `SELECT count(*) AS count, coalesce(sum(o.unit_price_fen), 0) AS value, count(DISTINCT c.client_order_ref) AS orders,
            coalesce(sum(c.exported_at IS NOT NULL), 0) AS exported, coalesce(sum((${REFUND_MARK_SQL}) IS NOT NULL), 0) AS refunded ${FROM} ${WHERE}`,
  );
  // The vault list: newest deliveries first, an order's cards in their order.
  const page = db.prepare<FilterParams & { limit: number; offset: number }, SelectedCardRow & { card_no_sealed: Buffer }>(
    `SELECT ${COLUMNS}, c.card_no_sealed ${FROM} ${WHERE}
     ORDER BY c.received_at DESC, c.client_order_ref DESC, c.seq LIMIT @limit OFFSET @offset`,
  );
  // The export: in the order the buyer bought them, which is how a file is read.
  const sealed = db.prepare<FilterParams, SealedCardRow>(
    `SELECT ${COLUMNS}, c.card_no_sealed, c.card_password_sealed ${FROM} ${WHERE}
     ORDER BY ordered_at, c.client_order_ref, c.seq`,
  );

  return {
    summary(filter: CardFilter): SelectionSummary {
      const row = summary.get(filterParams(filter));
      return { count: row?.count ?? 0, valueFen: row?.value ?? 0, orders: row?.orders ?? 0, exported: row?.exported ?? 0, refunded: row?.refunded ?? 0 };
    },
    page(filter: CardFilter, offset: number, limit: number): (SelectedCardRow & { card_no_sealed: Buffer })[] {
      return page.all({ ...filterParams(filter), offset, limit });
    },
    sealedRows(filter: CardFilter): SealedCardRow[] {
      return sealed.all(filterParams(filter));
    },
  };
}


/**
 * The audit log's subject: what was selected, in references only (never a secret), naming orders by
 * the merchant's order number and cards as the vault does (#1 first), never by the internal ref.
 */
export function describeSelection(selection: CardSelection, naming: (clientOrderRef: string) => OrderNaming): string {
  switch (selection.kind) {
    case 'cards': {
      const shown = selection.cards.slice(0, AUDIT_NAMED_CARDS).map((k) => cardLabel(naming(k.clientOrderRef), k.seq));
      const more = selection.cards.length - shown.length;
      return `selected cards: ${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
    }
    case 'order':
      return `order ${orderLabel(naming(selection.clientOrderRef))}`;
    case 'product':
      return `product ${selection.productRef}`;
    case 'dateRange':
      return `received ${new Date(selection.from * 1000).toISOString()} to ${new Date(selection.to * 1000).toISOString()}`;
    case 'notExported':
      return 'not yet exported';
  }
}

/** The same selection as facts for the audit row's detail (the screen words it in the buyer's language). */
export function selectionSubject(selection: CardSelection, naming: (clientOrderRef: string) => OrderNaming): AuditSubject {
  switch (selection.kind) {
    case 'cards': {
      const cards = selection.cards.slice(0, AUDIT_NAMED_CARDS).map((k) => ({ order: { ...naming(k.clientOrderRef) }, seq: k.seq }));
      return { kind: 'cards', cards, more: selection.cards.length - cards.length };
    }
    case 'order':
      return { kind: 'order', order: { ...naming(selection.clientOrderRef) } };
    case 'product':
      return { kind: 'product', productRef: selection.productRef };
    case 'dateRange':
      return { kind: 'dateRange', from: selection.from, to: selection.to };
    case 'notExported':
      return { kind: 'notExported' };
  }
}
