// One confirmation is one order: the review step's draftRef makes orders.place safe to send
// again — after a lost answer, a reconnected socket, a second click that got through. The sandbox's
// ledger shows one charge. A draft reused for other content is refused and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../src/shared/ipc/views/orders';
import type { Catalog} from '../../support/orders-harness';
import { fen, goodCard } from '../../support/orders-harness';
import { openConnectedApp, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let userId = '';

beforeAll(async () => {
  let account: { userId: string };
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE, {}));
  userId = account.userId;
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
});

describe('orders.place with a draftRef', () => {
  it('placed three times (two of them at once) is one intent, one order and one charge', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const input = { productRef: pick.product.productRef, variantRef, units: 2, unitPriceFen: fen(pick.variant.price), draftRef: 'rv_Zk3q9XbT0aPwL1mN8sYc' };
    const [first, second] = await Promise.all([kit.ok('orders.place', input), kit.ok('orders.place', input)]);
    const third = await kit.ok('orders.place', input);
    expect(new Set([first.clientOrderRef, second.clientOrderRef, third.clientOrderRef]).size).toBe(1);
    const ref = first.clientOrderRef;
    await waitFor('the order to be accepted', async () => {
      const detail: OrderDetail = await kit.ok('orders.get', { clientOrderRef: ref });
      return detail.state !== null ? detail : null;
    });
    const ledger = await merchant.control<{ entries: { kind: string; clientOrderRef: string; amount: string }[] }>('GET', `/control/ledger/${userId}`);
    const charges = ledger.entries.filter((entry) => entry.kind === 'charge');
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ clientOrderRef: ref });
    expect(fen(charges[0]?.amount ?? '0')).toBe(2 * fen(pick.variant.price));
    expect((await kit.ok('orders.list', {})).filter((row) => row.productRef === pick.product.productRef)).toHaveLength(1);
  });

  it('a draftRef reused for other content is refused and writes nothing; another draft is another order', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
    const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
    const input = { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price), draftRef: 'rv_Qq7w2EeR5tYu8IoP0aSd' };
    await kit.ok('orders.place', input);
    const before = (await kit.ok('orders.list', {})).length;
    const refused = await kit.call('orders.place', { ...input, units: 3 });
    expect(refused.ok).toBe(false);
    expect((await kit.ok('orders.list', {})).length).toBe(before);
    await kit.ok('orders.place', { ...input, draftRef: 'rv_Other5tYu8IoP0aSdQq7w' });
    expect((await kit.ok('orders.list', {})).length).toBe(before + 1);
  });
});
