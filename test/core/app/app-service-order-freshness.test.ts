// A fresh order detail at the core's edge: opening an order asks the merchant (orders.refresh), so
// the actions offered come from its status now and not from the last poll; the detail carries the
// states the order passed through, in the merchant's order (its revisions), never one it did not.
// A sandbox with automatic progress off, so each state is reached on purpose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import type { Catalog} from '../../support/orders-harness';
import { fen, goodCard, must } from '../../support/orders-harness';
import { openConnectedApp, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;

beforeAll(async () => {
  ({ merchant, kit, catalog } = await openConnectedApp(SCALE));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

async function placedCard(): Promise<OrderDetail> {
  const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) });
  return waitFor('the order to be accepted', async () => {
    const detail = await kit.ok('orders.get', { clientOrderRef: placed.clientOrderRef });
    return detail.state === 'pending' ? detail : null;
  });
}

describe('an order opened is an order asked about', () => {
  it('refresh reads the merchant now: a cancel the last poll still allowed is gone at once', async () => {
    const order = await placedCard();
    expect(order.allowedActions).toContain('cancel');
    await merchant.advance(order.clientOrderRef, 'processing');
    // What the app has stored is the last poll's view: still cancellable.
    expect((await kit.ok('orders.get', { clientOrderRef: order.clientOrderRef })).allowedActions).toContain('cancel');
    const fresh = await kit.ok('orders.refresh', { clientOrderRef: order.clientOrderRef });
    expect(fresh.state).toBe('processing');
    expect(fresh.allowedActions).not.toContain('cancel');
    // An order the merchant does not know is not asked about; an unknown ref is refused.
    const missing = await kit.call('orders.refresh', { clientOrderRef: 'o_not_ours_at_all' });
    expect(missing.ok).toBe(false);
  });

  it('records each state once, in the merchant’s order, and no state the order did not reach', async () => {
    const order = await placedCard();
    await merchant.advance(order.clientOrderRef, 'processing');
    await kit.ok('orders.refresh', { clientOrderRef: order.clientOrderRef });
    await kit.ok('orders.refresh', { clientOrderRef: order.clientOrderRef });
    await merchant.advance(order.clientOrderRef, 'failed');
    const failed = await kit.ok('orders.refresh', { clientOrderRef: order.clientOrderRef });
    expect(failed.state).toBe('failed');
    // completedAt is set for failed orders too (contract §7.4); the history does not read it as "completed".
    expect(failed.completedAt).not.toBeNull();
    expect(failed.stateHistory.map((step) => step.state)).toEqual(['pending', 'processing', 'failed']);
    const times = failed.stateHistory.map((step) => step.at);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    must(failed.stateHistory[0], 'first state');
  });
});
