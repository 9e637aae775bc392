// The compare of a reconciliation, as pure functions over plain facts (no database, no merchant): what
// the merchant listed (or answered to GET /orders/{ref}) against what the app holds. reconciliation.ts
// gathers the facts; these decide what differs (contract §12.2).
import { classifyOrderState, isRefundSucceeded } from '../../shared/merchant/known-values';
import type { MismatchField, OrderFactsView, ReconcileDifference } from '../../shared/ipc/views/reconcile';

export interface MerchantRefundFacts {
  readonly refundRef: string;
  readonly amountFen: number;
  readonly state: string;
}

/** An order as the merchant tells it (a list item or a detail); card_list never in here. */
export interface MerchantOrderFacts {
  readonly clientOrderRef: string;
  readonly platformOrderRef: string;
  readonly productName: string;
  readonly productType: string;
  readonly units: number;
  readonly totalFen: number;
  readonly refundedFen: number;
  readonly state: string;
  readonly createdAt: number;
  readonly revision: number;
  readonly refunds: readonly MerchantRefundFacts[];
}

/** Intent statuses after which the merchant may hold the order: sent and accepted, or sent with no answer known. */
export const SENT_STATUSES: readonly string[] = ['accepted', 'unknown', 'sending', 'withdrawing', 'merchant_failing'];
/** Of those, the ones whose outcome the app does not know: looked up, never assumed (merchant_failing: a create met a 500, contract §7.12). */
export const OUTCOME_UNKNOWN_STATUSES: readonly string[] = ['unknown', 'sending', 'withdrawing', 'merchant_failing'];

export interface LocalIntentFacts {
  readonly clientOrderRef: string;
  readonly status: string;
  /** True when the intent is parked by a refusal (needs_key …) while its outcome was unknown. */
  readonly parkedFromUnknown: boolean;
  readonly units: number;
  readonly productType: string;
  /** Local seconds the intent was written. */
  readonly createdAt: number;
}

export interface LocalOrderFacts {
  readonly clientOrderRef: string;
  readonly platformOrderRef: string;
  readonly productName: string | null;
  readonly productType: string | null;
  readonly state: string;
  readonly units: number;
  readonly totalFen: number;
  readonly refundedFen: number;
  readonly createdAt: number;
  readonly refunds: readonly MerchantRefundFacts[];
}

export interface LocalBook {
  readonly intents: ReadonlyMap<string, LocalIntentFacts>;
  readonly orders: ReadonlyMap<string, LocalOrderFacts>;
  /** Cards the vault holds per order. */
  readonly vaultCards: ReadonlyMap<string, number>;
  /** Foreign orders already recorded read-only. */
  readonly foreign: ReadonlySet<string>;
}

/** The merchant's answer to GET /orders/{ref} for one order: found (with its card count when completed) or not. */
export type LookupAnswer = { readonly found: true; readonly order: MerchantOrderFacts; readonly cards: number | null } | { readonly found: false };

export const isOutcomeUnknown = (intent: LocalIntentFacts): boolean => OUTCOME_UNKNOWN_STATUSES.includes(intent.status) || intent.parkedFromUnknown;
export const expectedAtMerchant = (intent: LocalIntentFacts): boolean => SENT_STATUSES.includes(intent.status) || intent.parkedFromUnknown;

const succeededFen = (refunds: readonly MerchantRefundFacts[]): number => refunds.filter((r) => isRefundSucceeded(r.state)).reduce((sum, r) => sum + r.amountFen, 0);

export function factsOf(order: MerchantOrderFacts | LocalOrderFacts): OrderFactsView {
  return { state: order.state, units: order.units, totalFen: order.totalFen, refundedFen: order.refundedFen, refundsSucceededFen: succeededFen(order.refunds), refundCount: order.refunds.length };
}

/** Refunds agree when the same refunds are there in the same states with the same amounts. */
function refundsAgree(a: readonly MerchantRefundFacts[], b: readonly MerchantRefundFacts[]): boolean {
  if (a.length !== b.length) return false;
  const byRef = new Map(b.map((r) => [r.refundRef, r]));
  return a.every((r) => {
    const other = byRef.get(r.refundRef);
    return other !== undefined && other.amountFen === r.amountFen && other.state === r.state;
  });
}

/** What differs between the merchant's order and the app's; empty when they agree. Raw states compared exactly. */
export function mismatchFields(merchant: MerchantOrderFacts, local: LocalOrderFacts | null): MismatchField[] {
  if (local === null) return ['notStored'];
  const fields: MismatchField[] = [];
  if (merchant.state !== local.state) fields.push('state');
  if (merchant.totalFen !== local.totalFen) fields.push('amount');
  if (merchant.units !== local.units) fields.push('units');
  if (merchant.refundedFen !== local.refundedFen || !refundsAgree(merchant.refunds, local.refunds)) fields.push('refunds');
  return fields;
}

/** A completed card order: its card count is the merchant's detail's, compared on every reconciliation. */
export function isCompletedCardOrder(merchant: MerchantOrderFacts): boolean {
  return merchant.productType === 'card' && merchant.state === 'completed';
}

export interface LookupPlan {
  /** Intents the merchant should hold but did not list: GET /orders/{ref}. */
  readonly missing: readonly string[];
  /** Completed card orders of the app: GET /orders/{ref} for its card_list (the list never carries one). */
  readonly cards: readonly string[];
}

/**
 * Which orders need the authenticated detail: intents the app sent (or does not know whether it did)
 * in the range that the list does not carry, and every completed card order of the app the list names,
 * for its card count (issue 24: a merchant taking a card back leaves the vault and the units agreeing,
 * so no local figure can tell that a count changed). Everything else is decided from the list.
 */
export function planLookups(listed: readonly MerchantOrderFacts[], book: LocalBook, inRange: (intent: LocalIntentFacts) => boolean): LookupPlan {
  const listedRefs = new Set(listed.map((o) => o.clientOrderRef));
  const missing = [...book.intents.values()].filter((i) => expectedAtMerchant(i) && inRange(i) && !listedRefs.has(i.clientOrderRef)).map((i) => i.clientOrderRef);
  const cards = listed.filter((o) => book.intents.has(o.clientOrderRef) && isCompletedCardOrder(o)).map((o) => o.clientOrderRef);
  return { missing, cards };
}

const named = (o: MerchantOrderFacts | LocalOrderFacts): { platformOrderRef: string; productName: string | null; createdAt: number } => ({
  platformOrderRef: o.platformOrderRef,
  productName: o.productName,
  createdAt: o.createdAt,
});

/** One merchant order against the books: at most one difference of each kind it shows. */
function compareOne(merchant: MerchantOrderFacts, book: LocalBook, cards: number | null): ReconcileDifference[] {
  const ref = merchant.clientOrderRef;
  if (!book.intents.has(ref)) {
    return book.foreign.has(ref) ? [] : [{ kind: 'foreign', clientOrderRef: ref, ...named(merchant), merchant: factsOf(merchant) }];
  }
  const local = book.orders.get(ref) ?? null;
  const out: ReconcileDifference[] = [];
  const fields = mismatchFields(merchant, local);
  if (fields.length > 0) out.push({ kind: 'mismatch', clientOrderRef: ref, ...named(merchant), fields, merchant: factsOf(merchant), local: local === null ? null : factsOf(local) });
  const vault = book.vaultCards.get(ref) ?? 0;
  if (cards !== null && (cards !== vault || cards !== merchant.units)) {
    out.push({ kind: 'cards', clientOrderRef: ref, ...named(merchant), units: merchant.units, merchantCards: cards, vaultCards: vault });
  }
  return out;
}

export interface Comparison {
  readonly differences: ReconcileDifference[];
  /** Every merchant order compared (listed, and found by look-up), once. */
  readonly merchantOrders: readonly MerchantOrderFacts[];
}

/**
 * The differences of a range: each listed order (and each found by look-up) against the books, and each
 * intent the merchant was looked up for and does not have. A look-up must exist for every ref of
 * planLookups: an outcome is never assumed.
 */
export function compareBooks(listed: readonly MerchantOrderFacts[], book: LocalBook, lookups: ReadonlyMap<string, LookupAnswer>): Comparison {
  const byRef = new Map<string, MerchantOrderFacts>();
  for (const order of listed) byRef.set(order.clientOrderRef, order);
  for (const answer of lookups.values()) {
    if (answer.found) {
      const known = byRef.get(answer.order.clientOrderRef);
      // The detail is authenticated and at least as new: it replaces the list's item when newer.
      if (known === undefined || answer.order.revision >= known.revision) byRef.set(answer.order.clientOrderRef, answer.order);
    }
  }
  const differences: ReconcileDifference[] = [];
  for (const order of byRef.values()) {
    const answer = lookups.get(order.clientOrderRef);
    differences.push(...compareOne(order, book, answer?.found === true ? answer.cards : null));
  }
  for (const [ref, answer] of lookups) {
    if (answer.found) continue;
    const intent = book.intents.get(ref);
    if (intent === undefined) continue;
    differences.push({ kind: 'notReceived', clientOrderRef: ref, platformOrderRef: null, productName: null, createdAt: intent.createdAt, intentStatus: intent.status, units: intent.units });
  }
  return { differences: differences.sort(differenceOrder), merchantOrders: [...byRef.values()] };
}

const KIND_ORDER: Readonly<Record<ReconcileDifference['kind'], number>> = { foreign: 0, mismatch: 1, cards: 2, notReceived: 3 };

function differenceOrder(a: ReconcileDifference, b: ReconcileDifference): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.createdAt ?? 0) - (b.createdAt ?? 0) || a.clientOrderRef.localeCompare(b.clientOrderRef);
}

/** Merchant orders whose state the app does not know: counted apart, never as success. */
export const unknownStateCount = (orders: readonly MerchantOrderFacts[]): number => orders.filter((o) => classifyOrderState(o.state).kind !== 'known').length;
