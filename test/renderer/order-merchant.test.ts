// The merchant of an order, read from the cached orders lists (rows tagged per merchant) and not
// from single orders (details carry no merchant): what "Review" of another merchant's order switches to.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { merchantOfOrder } from '../../src/renderer/src/lib/order-merchant';
import { keys } from '../../src/renderer/src/queries/keys';

describe('merchantOfOrder', () => {
  it('finds the row in any cached orders list, ignores details and unknown refs', () => {
    const client = new QueryClient();
    client.setQueryData(keys.order('o_x'), { clientOrderRef: 'o_x' });
    expect(merchantOfOrder(client, 'o_x')).toBeNull();
    client.setQueryData(keys.orderList({ profile: 'p2' }), [{ clientOrderRef: 'o_b', merchant: { profileId: 'p2', name: 'B' } }]);
    client.setQueryData(keys.orderList({}), [
      { clientOrderRef: 'o_a', merchant: { profileId: 'p1', name: 'A' } },
      { clientOrderRef: 'o_x' },
    ]);
    expect(merchantOfOrder(client, 'o_a')).toBe('p1');
    expect(merchantOfOrder(client, 'o_b')).toBe('p2');
    // A row without a tag (one merchant): nothing to switch to.
    expect(merchantOfOrder(client, 'o_x')).toBeNull();
    expect(merchantOfOrder(client, 'o_none')).toBeNull();
  });
});
