// Control calls that change an order behind the buyer's back (docs/sandbox.md): what a merchant's own
// staff or a bug might do, with no webhook and no ledger entry, so that a reconciliation has something
// to find. The order's revision moves up by one, as for any change the interface shows.
import { generateCards } from '../domain/card-generator';
import type { Merchant } from '../domain/merchant';
import { orderToWire, type OrderState } from '../domain/order-records';
import { ControlError, readYuan, type ControlBody } from './control-error';
import { ApiError } from '../http/api-error';

const STATES: readonly string[] = ['pending', 'processing', 'verifying', 'completed', 'failed', 'cancelled', 'refunded'];

/** `{"state"?, "units"?, "totalAmount"?: "yuan", "cards"?: n}`: the order as told from now on; cards kept (the first n) or added. */
export function tamperOrder(merchant: Merchant, clientOrderRef: string, body: ControlBody): unknown {
  const order = merchant.orders.findAnywhere(clientOrderRef);
  if (!order) throw new ControlError(404, 'no such order');
  const { state, units, totalAmount, cards } = body;
  if (state !== undefined && !(typeof state === 'string' && STATES.includes(state))) throw new ControlError(400, `state is one of ${STATES.join(', ')}`);
  if (units !== undefined && !(typeof units === 'number' && Number.isInteger(units) && units > 0)) throw new ControlError(400, 'units is a positive integer');
  if (cards !== undefined && !(typeof cards === 'number' && Number.isInteger(cards) && cards >= 0)) throw new ControlError(400, 'cards is a whole number');
  const total = totalAmount === undefined ? undefined : readYuan(totalAmount, 'totalAmount');
  if (typeof cards === 'number' && order.cards === null) throw new ControlError(409, 'the order has no cards to change');
  const now = merchant.ctx.clock.nowSeconds();
  if (typeof state === 'string') order.state = state as OrderState;
  if (typeof units === 'number') order.units = units;
  if (total !== undefined) order.totalFen = total;
  if (typeof cards === 'number' && order.cards !== null) {
    const kept = order.cards.slice(0, cards);
    order.cards = kept.length < cards ? [...kept, ...generateCards(cards - kept.length, order.productRef, now)] : kept;
  }
  order.revision += 1;
  order.updatedAt = now;
  return orderToWire(order, true);
}

/** Forgets an order: the merchant answers 404002 for it and lists it no more (the ledger keeps its charge). */
export function dropOrder(merchant: Merchant, clientOrderRef: string): unknown {
  const order = merchant.orders.findAnywhere(clientOrderRef);
  if (!order) throw new ControlError(404, 'no such order');
  order.timer?.cancel();
  merchant.orders.remove(order);
  return { dropped: clientOrderRef };
}

/**
 * An order placed with the account outside this OpenAPI client (the merchant's own shop, another
 * program): the same rules and charge as POST /orders/create with the body given
 * (`{"clientOrderRef","productRef","variantRef"?,"units"}`); a refusal answers 409 with its code.
 */
export function placeOrderElsewhere(merchant: Merchant, userId: string, body: ControlBody): unknown {
  const account = merchant.ctx.accounts.byUserId(userId);
  if (!account) throw new ControlError(404, 'no such account');
  try {
    return orderToWire(merchant.creation.create(account, body), false);
  } catch (error) {
    if (error instanceof ApiError) throw new ControlError(409, `refused: ${error.message}`);
    throw error;
  }
}

/**
 * What the merchant received for an order, as it keeps the create's content to compare a retry with:
 * `{clientOrderRef, productRef, variantRef, units, purchaseSchemaRevision, purchaseEntries}` (entries with
 * their keys sorted). For tests that check what was sent, e.g. an option's code rather than its label.
 */
export function receivedOrder(merchant: Merchant, clientOrderRef: string): unknown {
  const order = merchant.orders.findAnywhere(clientOrderRef);
  if (!order) throw new ControlError(404, 'no such order');
  const content: unknown = JSON.parse(order.contentKey);
  if (!Array.isArray(content)) throw new ControlError(500, 'the order keeps no content');
  const part = (index: number): unknown => content.at(index);
  const [productRef, variantRef, units, entries, purchaseSchemaRevision] = [0, 1, 2, 3, 4].map(part);
  const purchaseEntries: unknown = typeof entries === 'string' ? JSON.parse(entries) : [];
  return { clientOrderRef, productRef, variantRef, units, purchaseSchemaRevision, purchaseEntries };
}
