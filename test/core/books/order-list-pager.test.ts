// The paging rule of a reconciliation run, against a scripted list (what a merchant answers page by
// page) and the run store on disk: a list that grows shows an item twice and keeps it once; a list that
// shrinks is read again from page 1, once; a stored page is never asked again after an interruption.
import { afterEach, describe, expect, it } from 'vitest';
import type { Order, OrderList } from '../../../src/shared/merchant/order';
import type { MerchantClient } from '../../../src/core/merchant/merchant-client';
import { pageOrderList, ReconcilePagingError } from '../../../src/core/books/order-list-pager';
import { createReconcileRunStore } from '../../../src/core/books/reconcile-run-store';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase | null = null;
afterEach(() => temp?.dispose());

const owner = { baseUrl: 'https://m.example/openapi/v1', userId: 'u1' };
const range = { fromDay: '2026-11-25', toDay: '2026-11-25', createdFrom: 1000, createdTo: 2000 };

const order = (ref: string, createdAt: number): Order => ({
  clientOrderRef: ref,
  platformOrderRef: `9${createdAt}`,
  productRef: 1,
  variantRef: 0,
  productName: 'x',
  variantTitle: 'y',
  productType: 'card',
  units: 1,
  unitPrice: 100,
  totalAmount: 100,
  refundedAmount: 0,
  state: 'completed',
  allowedActions: [],
  revision: 1,
  failureReason: null,
  verificationHint: null,
  createdAt,
  updatedAt: createdAt,
  completedAt: createdAt,
  orderCallbackUrl: null,
  imageUrl: null,
  entryCount: 0,
  refunds: [],
  card_list: null,
});

/** A client whose list answers are scripted per call; every page asked is recorded. */
function scripted(pages: ((page: number) => OrderList)[]): { client: MerchantClient; asked: number[] } {
  const asked: number[] = [];
  const listOrders: MerchantClient['listOrders'] = (query = {}) => {
    const page = query.page ?? 1;
    asked.push(page);
    const answer = pages[asked.length - 1];
    if (answer === undefined) return Promise.reject(new Error('merchant gone'));
    return Promise.resolve({ data: answer(page), requestId: `req_page_${page}` });
  };
  return { client: { listOrders } as MerchantClient, asked };
}

const listOf = (all: Order[], total = all.length) => (page: number): OrderList => ({ list: all.slice((page - 1) * 2, page * 2), total, page, pageSize: 2 });

function setup() {
  temp = createMigratedDatabase();
  const store = createReconcileRunStore(temp.db, owner);
  const run = store.begin(range, range.createdTo, 2, 0);
  return { store, run };
}

describe('order list pager', () => {
  it('keeps an item pushed onto the next page once, and follows the grown total', async () => {
    const { store, run } = setup();
    const five = ['e', 'd', 'c', 'b', 'a'].map((r, i) => order(r, 1900 - i));
    const grown = [order('new', 1950), ...five];
    const { client, asked } = scripted([listOf(five), listOf(grown), listOf(grown), listOf(grown)]);
    await pageOrderList(run.id, { client, store });
    expect(asked).toEqual([1, 2, 3]);
    expect(store.items(run.id).map((o) => o.clientOrderRef).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('reads again from page 1 once when the list shrinks, and stops on a second shrink', async () => {
    const { store, run } = setup();
    const four = ['d', 'c', 'b', 'a'].map((r, i) => order(r, 1900 - i));
    const three = four.slice(1);
    const { client, asked } = scripted([listOf(four), listOf(three), listOf(three), listOf(three)]);
    await pageOrderList(run.id, { client, store });
    expect(asked).toEqual([1, 2, 1, 2]);
    expect(store.items(run.id).map((o) => o.clientOrderRef).sort()).toEqual(['a', 'b', 'c']);

    const again = setup();
    const two = four.slice(2);
    const twice = scripted([listOf(four), listOf(three), listOf(three), listOf(two)]);
    await expect(pageOrderList(again.run.id, { client: twice.client, store: again.store })).rejects.toThrow(ReconcilePagingError);
  });

  it('resumes after the merchant went away at the page after the last stored, asking no stored page again', async () => {
    const { store, run } = setup();
    const five = ['e', 'd', 'c', 'b', 'a'].map((r, i) => order(r, 1900 - i));
    const first = scripted([listOf(five)]);
    await expect(pageOrderList(run.id, { client: first.client, store })).rejects.toThrow('merchant gone');
    expect(store.get(run.id)).toMatchObject({ nextPage: 2, pagesRead: 1, firstTotal: 5 });
    const second = scripted([listOf(five), listOf(five)]);
    await pageOrderList(run.id, { client: second.client, store });
    expect([...first.asked.slice(0, 1), ...second.asked]).toEqual([1, 2, 3]);
    expect(store.items(run.id)).toHaveLength(5);
  });

  it('refuses a short page before the last and a page larger than its size', async () => {
    const { store, run } = setup();
    const five = ['e', 'd', 'c', 'b', 'a'].map((r, i) => order(r, 1900 - i));
    const shortPage = scripted([listOf(five), () => ({ list: [five[2] as Order], total: 5, page: 2, pageSize: 2 })]);
    await expect(pageOrderList(run.id, { client: shortPage.client, store })).rejects.toThrow(/holds 1 items, not 2/);
    const other = setup();
    const big = scripted([() => ({ list: five, total: 5, page: 1, pageSize: 2 })]);
    await expect(pageOrderList(other.run.id, { client: big.client, store: other.store })).rejects.toThrow(ReconcilePagingError);
  });
});
