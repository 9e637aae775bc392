// Which order transitions announce their product as read by the price guard (contract §7.7): a status
// reached only after the guard's read (a send, a park), once per product; nothing else.
import { describe, expect, it } from 'vitest';
import type { OrderTransition } from '../../../src/core/app/change-watch';
import { productsReadByGuard } from '../../../src/core/app/guard-read-notice';

const moved = (productRef: number, previousIntentStatus: string | null, intentStatus: string, state: string | null = null): OrderTransition => ({
  clientOrderRef: `r${productRef}${intentStatus}`,
  productRef,
  productName: null,
  platformOrderRef: null,
  intentStatus,
  previousIntentStatus,
  state,
  previousState: null,
  cards: 0,
  previousCards: 0,
  refunds: '|',
  previousRefunds: '|',
});

describe('productsReadByGuard', () => {
  it('names the products of intents parked or sent after the guard read them, once each', () => {
    expect(productsReadByGuard([moved(7, 'queued', 'unavailable'), moved(8, 'queued', 'price_changed'), moved(7, 'queued', 'accepted'), moved(9, null, 'accepted')])).toEqual([7, 8, 9]);
  });

  it('names nothing for moves the guard had no part in: queued, withdrawn, the merchant state only', () => {
    expect(productsReadByGuard([moved(1, null, 'queued'), moved(2, 'unavailable', 'withdrawn'), moved(3, 'accepted', 'accepted', 'completed'), moved(4, 'needs_template', 'needs_template')])).toEqual([]);
  });
});
