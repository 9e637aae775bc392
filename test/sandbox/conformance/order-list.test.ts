// GET /orders (contract §7.5) and the control calls reconciliation tests use (docs/sandbox.md): the
// list is newest first, filtered by state, productRef and createdFrom/createdTo (inclusive), and never
// carries card_list; tamper changes an order behind the buyer's back (revision + 1, no ledger entry),
// drop makes the merchant forget one, and an order placed in the merchant's own shop is listed and
// charged like any other.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { control } from '../../support/merchant-http';
import {
  Catalog,
  advance,
  api,
  controlProducts,
  createOrder,
  expectError,
  getOrder,
  goodCard,
  launch,
  ledger,
  newAccount,
  ok,
  orderBody,
  sleep,
  template,
  uid,
  type Account,
  type Harness,
  type ListPayload,
  type Order,
} from '../../support/orders-harness';

let h: Harness;
let account: Account;
let catalog: Catalog;

beforeAll(async () => {
  h = await launch(['--auto-advance', 'off'], 1);
  account = await newAccount(h);
  catalog = new Catalog(await controlProducts(h));
});

afterAll(async () => {
  await h?.sandbox.stop();
});

const list = async (query: Record<string, string | number>): Promise<ListPayload<Order>> => ok(await api<ListPayload<Order>>(h, account, 'GET', '/orders', { query: { pageSize: 100, ...query } }));

describe('GET /orders', () => {
  test('newest first, filtered by state, product and creation time (inclusive), without card_list', async () => {
    const a = catalog.claim((p, v) => goodCard(p, v), 'a card product');
    const b = catalog.claim((p, v) => goodCard(p, v), 'another card product');
    const refs: string[] = [];
    for (const pick of [a, a, b]) {
      const ref = uid('list');
      ok(await createOrder(h, account, orderBody(pick, await template(h, account, pick), ref)));
      refs.push(ref);
      // A second apart, so creation times differ.
      await sleep(1100);
    }
    const [first, second, third] = refs as [string, string, string];
    await advance(h, first, 'processing');
    await advance(h, first, 'completed');
    expect((await getOrder(h, account, first)).card_list?.length).toBeGreaterThan(0);

    const all = await list({});
    expect(all.list.map((o) => o.clientOrderRef)).toEqual([third, second, first]);
    expect(all.list.every((o) => o.card_list === null)).toBe(true);
    expect((await list({ state: 'completed' })).list.map((o) => o.clientOrderRef)).toEqual([first]);
    expect((await list({ productRef: b.product.productRef })).list.map((o) => o.clientOrderRef)).toEqual([third]);
    const at = (await getOrder(h, account, second)).createdAt;
    expect((await list({ createdFrom: at, createdTo: at })).list.map((o) => o.clientOrderRef)).toEqual([second]);
    expect((await list({ createdFrom: at })).list.map((o) => o.clientOrderRef)).toEqual([third, second]);
    expect((await list({ createdTo: at })).list.map((o) => o.clientOrderRef)).toEqual([second, first]);
    expect((await list({ page: 2, pageSize: 2 })).list.map((o) => o.clientOrderRef)).toEqual([first]);
  });

  test('control: tamper (no ledger entry), drop (404002, unlisted) and an order placed in the merchant’s shop', async () => {
    const pick = catalog.claim((p, v) => goodCard(p, v), 'a card product');
    const ref = uid('tamper');
    const placed = ok(await createOrder(h, account, orderBody(pick, await template(h, account, pick), ref)));
    const entries = (await ledger(h, account)).entries.length;
    const tampered = await control<Order>(h.sandbox, 'POST', `/control/orders/${ref}/tamper`, { units: 5, totalAmount: '1.23', state: 'failed' });
    expect(tampered).toMatchObject({ units: 5, totalAmount: 1.23, state: 'failed', revision: placed.revision + 1 });
    expect((await ledger(h, account)).entries.length).toBe(entries);

    await control(h.sandbox, 'POST', `/control/orders/${ref}/drop`);
    expectError(await api(h, account, 'GET', `/orders/${ref}`), 404, 404002);
    expect((await list({})).list.map((o) => o.clientOrderRef)).not.toContain(ref);

    const shop = uid('shop');
    const elsewhere = await control<Order>(h.sandbox, 'POST', `/control/accounts/${account.userId}/orders`, { clientOrderRef: shop, productRef: pick.product.productRef, ...(pick.product.variants.length > 1 ? { variantRef: pick.variant.variantRef } : {}), units: 1 });
    expect(elsewhere.clientOrderRef).toBe(shop);
    expect((await list({})).list[0]?.clientOrderRef).toBe(shop);
    expect((await ledger(h, account)).entries.filter((e) => e.clientOrderRef === shop && e.kind === 'charge')).toHaveLength(1);
  });
});
