// What each webhook kind does once its inbox entry is processed (inbox-processor.ts): the body is a
// hint, and only what the merchant confirms through an authenticated read is recorded (interface v1
// §6.4.9). Each handler answers with the outcome kept on the entry; a throw means "try again later".
import type { Database } from 'better-sqlite3';
import type { WebhookEvent } from '../../shared/merchant/webhook-events';
import type { CatalogRepository } from '../catalog/catalog-repository';
import { applyProductChangedEvent } from '../catalog/product-changes';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError } from '../merchant/merchant-errors';
import type { OrderTracker } from '../orders/order-tracker';
import type { CardCipher } from '../vault/card-cipher';
import { applyAftersaleCase } from './aftersale-case-store';
import type { InboxEntry, SealedCard, WebhookInbox } from './webhook-inbox';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';


const NOT_OURS = 'ignored: no order of this app has this clientOrderRef';

/** Final: the entry is finished with this outcome. Not final: retried later, the outcome kept. */
export type HandleResult = { final: true; outcome: string } | { final: false; outcome: string };

export interface EventHandlerDeps {
  readonly db: Database;
  readonly cipher: CardCipher;
  readonly catalog: CatalogRepository;
  readonly client: Pick<MerchantClient, 'getProduct' | 'getTemplate' | 'getAftersale'>;
  readonly tracker: Pick<OrderTracker, 'refresh'>;
  readonly inbox: WebhookInbox;
  readonly nowSeconds: () => number;
}

/** The handler of every known kind; it keeps which product details hints already caused to be read. */
export function createEventHandlers(deps: EventHandlerDeps): (entry: InboxEntry, event: WebhookEvent) => Promise<HandleResult> {
  /** productRef → clock seconds when a hint's detail read was sent (older hints are covered by it). */
  const detailReadAt = new Map<number, number>();
  return async (entry, event) => {
    switch (event.eventType) {
      case 'product.changed':
        return productChanged(deps, detailReadAt, entry, event);
      case 'order.changed':
        return orderChanged(deps, event.clientOrderRef);
      case 'order.credentials.ready':
        return credentialsReady(deps, entry, event.clientOrderRef);
      case 'aftersale.message.created':
        return aftersaleMessageCreated(deps, event.platformCaseRef, event.message.messageRef);
    }
  };
}

/**
 * The product's detail read with our key and applied, never the snapshot; a revision far in the future
 * is refused unasked, one no newer than the stored detail needs no request, and a hint that arrived
 * before this run last read the product's detail is covered by that read.
 */
async function productChanged(
  deps: EventHandlerDeps,
  detailReadAt: Map<number, number>,
  entry: InboxEntry,
  event: Extract<WebhookEvent, { eventType: 'product.changed' }>,
): Promise<HandleResult> {
  const readAt = detailReadAt.get(event.productRef);
  // Seconds are coarse: only a read sent a whole second after the hint arrived surely saw it.
  if (readAt !== undefined && readAt > entry.receivedAt) {
    return { final: true, outcome: `checked: product ${event.productRef} detail read after this hint arrived; the hint's snapshot is not stored` };
  }
  const sentAt = deps.nowSeconds();
  try {
    const result = await applyProductChangedEvent({ repository: deps.catalog, client: deps.client, nowSeconds: deps.nowSeconds }, event);
    if (result.kind === 'refused') return { final: true, outcome: `refused: product ${result.productRef} hint ${result.reason}; nothing asked or stored` };
    if (result.kind === 'stale') return { final: true, outcome: `ignored: stale snapshot of product ${result.productRef} revision ${result.revision} (stored ${result.storedRevision})` };
    detailReadAt.set(event.productRef, sentAt);
    if (detailReadAt.size > 1000) detailReadAt.clear();
    return { final: true, outcome: `applied: product ${result.productRef} revision ${result.revision} (detail fetched)` };
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE) return { final: true, outcome: 'ignored: product not visible to this account' };
    throw error;
  }
}

// Orders are stored only under an intent this app wrote (0002); a hook about any other ref is not
// ours to act on, and is not worth a merchant request either.
function isOurOrder(db: Database, ref: string): boolean {
  return db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM order_intents WHERE client_order_ref = ?').get(ref)?.n === 1;
}

function countCards(db: Database, ref: string): number {
  return db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM cards WHERE client_order_ref = ?').get(ref)?.n ?? 0;
}

/** The hook's content is never applied: the tracker's authenticated GET /orders/{ref} is. */
async function orderChanged(deps: EventHandlerDeps, ref: string): Promise<HandleResult> {
  if (!isOurOrder(deps.db, ref)) return { final: true, outcome: NOT_OURS };
  try {
    const order = await deps.tracker.refresh(ref);
    return { final: true, outcome: `refreshed: order ${ref} state ${order?.state ?? 'unknown'} revision ${order?.revision ?? '?'} (from GET /orders)` };
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) return { final: true, outcome: 'unconfirmed: the merchant does not know this order; nothing recorded' };
    throw error;
  }
}

/**
 * The same refresh: cards reach the vault only from the detail. The sealed copy of the hook's cards is
 * compared with the vault to say in the outcome whether the sender's claim matched.
 */
async function credentialsReady(deps: EventHandlerDeps, entry: InboxEntry, ref: string): Promise<HandleResult> {
  if (!isOurOrder(deps.db, ref)) return { final: true, outcome: `${NOT_OURS}; no cards recorded` };
  const before = countCards(deps.db, ref);
  try {
    await deps.tracker.refresh(ref);
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.ORDER_NOT_FOUND) return { final: true, outcome: 'unconfirmed: the merchant does not know this order; no cards recorded' };
    throw error;
  }
  const after = countCards(deps.db, ref);
  if (after === 0) return { final: true, outcome: 'unconfirmed: the merchant detail has no card_list; no cards recorded' };
  const match = cardsMatch(deps, ref, deps.inbox.sealedCards(entry.eventId));
  return {
    final: true,
    outcome: match
      ? `confirmed: ${after} cards from GET /orders (${after - before} new)`
      : `mismatch: the hook's cards differ from the merchant detail; only the detail's ${after} cards are kept (${after - before} new)`,
  };
}

/** Does the sender's copy of the cards match what the merchant's detail put in the vault? */
function cardsMatch(deps: EventHandlerDeps, ref: string, claimed: readonly SealedCard[]): boolean {
  const { db, cipher } = deps;
  const stored = db
    .prepare<[string], { seq: number; card_no_sealed: Buffer; card_password_sealed: Buffer }>(
      'SELECT seq, card_no_sealed, card_password_sealed FROM cards WHERE client_order_ref = ? ORDER BY seq',
    )
    .all(ref);
  if (stored.length !== claimed.length) return false;
  const same = (sealed: Buffer, claim: Buffer, record: { clientOrderRef: string; seq: number; field: 'card_no' | 'card_password' }): boolean => {
    try {
      return cipher.unseal(sealed, record) === cipher.unseal(claim, record);
    } catch {
      // A claim sealed under a key this run no longer holds cannot be compared: not a match.
      return false;
    }
  };
  return stored.every((row, index) => {
    const claim = claimed[index];
    if (claim === undefined || row.seq !== index) return false;
    const no = { clientOrderRef: ref, seq: index, field: 'card_no' as const };
    const pw = { clientOrderRef: ref, seq: index, field: 'card_password' as const };
    return same(row.card_no_sealed, claim.cardNo, no) && same(row.card_password_sealed, claim.cardPassword, pw);
  });
}

/** GET /aftersales/{ref}, stored with each message once. */
async function aftersaleMessageCreated(deps: EventHandlerDeps, platformCaseRef: string, messageRef: string): Promise<HandleResult> {
  try {
    const { data } = await deps.client.getAftersale(platformCaseRef);
    const result = applyAftersaleCase(deps.db, data, deps.nowSeconds());
    const confirmed = data.messages.some((m) => m.messageRef === messageRef);
    return {
      final: true,
      outcome: `${confirmed ? 'stored' : 'unconfirmed: message not in the case detail;'} case ${data.platformCaseRef} state ${data.state}, ${result.messagesAdded} new messages (from GET /aftersales)`,
    };
  } catch (error) {
    if (error instanceof MerchantApiError && error.code === MERCHANT_ERROR.AFTERSALE_NOT_FOUND) return { final: true, outcome: 'unconfirmed: the merchant does not know this case; nothing recorded' };
    throw error;
  }
}
