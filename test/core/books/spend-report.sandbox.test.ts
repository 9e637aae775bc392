// The spend report against the sandbox's ledger: real orders placed through the app (one completed,
// one failed, one completed then partly refunded, one cancelled, one left pending) and the report's
// charged, refunded and net equal the merchant's charges and refunds; success counts only completed
// orders; one chart exports as CSV. Then the buyer's low-balance line: a crossing by an order notifies
// once (and a further order below it does not), going back above and below again notifies again, a
// finished catalog sync reads the balance so a crossing made elsewhere is seen; the setting refuses
// negative, fractional, non-numeric and huge values.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYuanText } from '../../../src/shared/money';
import { localDayOf } from '../../../src/core/books/local-days';
import { MAX_LOW_BALANCE_FEN } from '../../../src/shared/ipc/views/settings';
import { goodCard, fen, type Catalog } from '../../support/orders-harness';
import { expectRefused, openConnectedApp, orderDetailWhen, waitFor, type AppKit, type Merchant } from '../app/app-kit';

const SCALE = 50;
const ZONE = 'Asia/Shanghai';
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let account: { userId: string; apiKey: string };
const exportDir = mkdtempSync(join(tmpdir(), 'procure-spend-export-'));

beforeAll(async () => {
  ({ merchant, kit, catalog, account } = await openConnectedApp(SCALE));
  kit.host.chooseExportPath = (name) => Promise.resolve(join(exportDir, name));
});

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
  rmSync(exportDir, { recursive: true, force: true });
});

/** Wide enough for the sandbox's scaled clock: a month either side of now. */
const range = () => ({ from: localDayOf(ZONE, Date.now() - 30 * 86_400_000), to: localDayOf(ZONE, Date.now() + 30 * 86_400_000), timeZone: ZONE });

async function placeCard(): Promise<string> {
  const pick = catalog.claim((p, v) => goodCard(p, v) && fen(v.price) < 500_00, 'card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units: 1, unitPriceFen: fen(pick.variant.price) });
  await orderDetailWhen(kit, placed.clientOrderRef, 'acceptance', (d) => d.intentStatus === 'accepted' && d.state === 'pending');
  return placed.clientOrderRef;
}

async function ledger(): Promise<{ balanceFen: number; chargedFen: number; refundedFen: number }> {
  const book = await merchant.control<{ balance: string; entries: { kind: string; amount: string }[] }>('GET', `/control/ledger/${account.userId}`);
  const sum = (kind: string) => book.entries.filter((e) => e.kind === kind).reduce((s, e) => s + (parseYuanText(e.amount) ?? Number.NaN), 0);
  return { balanceFen: parseYuanText(book.balance) ?? Number.NaN, chargedFen: sum('charge'), refundedFen: sum('refund') };
}

const lowNotices = () => kit.events.filter((e) => e.event === 'app.notification' && (e.payload as { kind: string }).kind === 'lowBalance').length;

describe('spend report against the merchant', () => {
  it("equals the ledger's charges minus refunds, counts only completed as success, exports a chart", async () => {
    const completed = await placeCard();
    const failed = await placeCard();
    const refunded = await placeCard();
    const cancelled = await placeCard();
    const pending = await placeCard();
    for (const ref of [completed, failed, refunded]) await merchant.advance(ref, 'processing');
    await merchant.advance(completed, 'completed');
    await merchant.advance(refunded, 'completed');
    await merchant.advance(failed, 'failed');
    await merchant.advance(cancelled, 'cancelled');
    await orderDetailWhen(kit, refunded, 'completion', (d) => d.state === 'completed' && d.allowedActions.includes('refund'));
    await kit.ok('orders.requestRefund', { clientOrderRef: refunded, amountFen: 1_00, reason: 'one code did not work' });
    await merchant.advance(refunded, 'refund.succeeded');
    await orderDetailWhen(kit, refunded, 'the refund', (d) => d.refundedFen === 1_00);
    await orderDetailWhen(kit, failed, 'the failure', (d) => d.state === 'failed');
    await orderDetailWhen(kit, cancelled, 'the cancel', (d) => d.state === 'cancelled');
    await orderDetailWhen(kit, completed, 'completion', (d) => d.state === 'completed');
    await orderDetailWhen(kit, pending, 'pending', (d) => d.state === 'pending');

    const book = await ledger();
    const report = await kit.ok('books.spend', range());
    expect(report.totals.orders).toBe(5);
    expect(report.totals.chargedFen).toBe(book.chargedFen);
    expect(report.totals.refundedFen).toBe(book.refundedFen);
    expect(report.totals.netFen).toBe(book.chargedFen - book.refundedFen);
    expect(report.totals).toMatchObject({ completed: 2, unsuccessful: 2, inProgress: 1, unknownState: 0, successRate: 0.5 });
    expect(report.totals.medianDeliverySeconds).not.toBeNull();
    expect(report.days.reduce((s, d) => s + d.netFen, 0)).toBe(report.totals.netFen);
    expect(report.byProduct).toHaveLength(5);
    // The balance the connect test and the reads after each order saw.
    expect(report.balance.length).toBeGreaterThanOrEqual(1);

    const written = await kit.ok('books.exportSpend', { query: range(), chart: 'products', format: 'csv', language: 'zh-CN' });
    if (written.status !== 'written') throw new Error('not written');
    expect(written.count).toBe(5);
    const text = readFileSync(written.path, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.split('\r\n')[0]).toBe('\ufeff商品,订单数,扣款（元）,退款（元）,净支出（元）');
    const xlsx = await kit.ok('books.exportSpend', { query: range(), chart: 'days', format: 'xlsx' });
    if (xlsx.status !== 'written') throw new Error('not written');
    expect(readFileSync(xlsx.path).subarray(0, 2).toString()).toBe('PK');

    expectRefused(await kit.call('books.spend', { ...range(), timeZone: 'Mars/Olympus' }), 'INVALID_INPUT');
    expectRefused(await kit.call('books.spend', { ...range(), from: '2026-02-30' }), 'INVALID_INPUT');
    expectRefused(await kit.call('books.spend', { from: '2020-01-01', to: '2026-01-01', timeZone: ZONE }), 'INVALID_INPUT');
  });

  it('refuses a low-balance line that is negative, fractional, not a number or huge', async () => {
    for (const bad of [-1, 1.5, '100', null, MAX_LOW_BALANCE_FEN + 1, Number.MAX_SAFE_INTEGER]) expectRefused(await kit.call('settings.set', { lowBalanceFen: bad }), 'INVALID_INPUT');
    expect((await kit.ok('settings.get')).lowBalanceFen).toBe(100_00);
  });

  it('notifies once per crossing of the line, by an order and by a sync', async () => {
    const { balanceFen } = await ledger();
    const before = lowNotices();
    // The line just under the balance: the next order crosses it.
    await kit.ok('settings.set', { lowBalanceFen: balanceFen - 1 });
    await kit.ok('account.get');
    expect(lowNotices()).toBe(before);
    await placeCard();
    await waitFor('the crossing notice', () => lowNotices() === before + 1);
    const notice = kit.events.filter((e) => e.event === 'app.notification' && (e.payload as { kind: string }).kind === 'lowBalance').at(-1)?.payload as { balanceFen: number };
    expect(notice.balanceFen).toBeLessThan(balanceFen - 1);

    // Still below: another order and reads do not notify again.
    await placeCard();
    const afterSecond = await ledger();
    await waitFor('the balance after the second order', async () => (await kit.ok('account.get')).balanceFen === afterSecond.balanceFen);
    expect(lowNotices()).toBe(before + 1);

    // Above again (a top-up), then a sync reads the balance after the merchant lowered it: a new crossing.
    await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '100000' });
    await kit.ok('account.get');
    expect(lowNotices()).toBe(before + 1);
    // Quiet first (the reads the orders asked for are done), so the read counted below is the sync's.
    const accountReads = () => kit.requests.filter((r) => r.url.endsWith('/account')).length;
    let seen = accountReads();
    await waitFor('no balance read for 2 s', async () => {
      const now = accountReads();
      if (now !== seen) {
        seen = now;
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return accountReads() === now;
    });
    await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '1' });
    const reads = accountReads();
    await kit.ok('catalog.sync');
    await waitFor('the sync to end', async () => !(await kit.ok('catalog.syncStatus')).running);
    await waitFor('the balance read after the sync', () => accountReads() > reads);
    await waitFor('the second crossing notice', () => lowNotices() === before + 2);
  });
});
