// Reconciliation against the sandbox over HTTPS with SQLite on disk, through the app's channels: a clean
// day has no difference; each kind (a)–(d) made through the control API and a second client on the same
// account is found; the actions fix what they should (checked in the database and at the merchant); the
// balance check says when a boundary is not known; an interrupted run resumes without reading a page
// twice; orders placed while the list is paged do not break it; the report holds no card secret.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readXlsx } from '../export/file-readers';
import type { ReconcileReport } from '../../../src/shared/ipc/views/reconcile';
import { openConnectedApp, type ConnectedApp } from '../app/app-kit';
import { goodCard } from '../../support/orders-harness';
import { spendTable } from '../../../src/core/books/spend-export';
import { reconcileReportTable } from '../../../src/core/books/reconcile-report-table';
import { orderDetailWhen } from '../app/app-kit';
import { placeCard, placeCompletedCard, secondClient, tamper, today } from './reconcile-kit';

let opened: ConnectedApp | null = null;
afterEach(async () => {
  await opened?.kit.close();
  await opened?.merchant.stop();
  opened = null;
});

/**
 * Connected, then into the next whole second: a charge in the same second as a reading counts as before
 * it (contract §12.2), so an order placed within the connect's second would leave the opening unknown.
 */
const open = async (): Promise<ConnectedApp> => {
  opened = await openConnectedApp(1);
  await new Promise((resolve) => setTimeout(resolve, 1_005 - (Date.now() % 1_000)));
  return opened;
};
const kinds = (report: ReconcileReport): string[] => report.differences.map((d) => `${d.kind}:${d.clientOrderRef}`).sort();
const listRequests = (app: ConnectedApp): string[] => app.kit.requests.filter((r) => r.method === 'GET' && new URL(r.url).pathname.endsWith('/orders')).map((r) => new URL(r.url).searchParams.get('page') ?? '?');

describe('reconciliation against the sandbox', () => {
  it('finds nothing on a clean day: the balance from the first reading of the day to a fresh one, checked to the fen', async () => {
    const app = await open();
    const refs = [await placeCompletedCard(app.kit, app.merchant, app.catalog, 2), await placeCompletedCard(app.kit, app.merchant, app.catalog, 1)];
    const report = await app.kit.ok('books.reconcile', { fromDay: today() });
    expect(report.differences).toEqual([]);
    expect(report.totals).toMatchObject({ merchantOrders: 2, appOrders: 2, completed: 2, unknownStates: 0, differences: 0, cardOrdersCompared: 2 });
    // Nobody asked the balance before today's connect, and no money moved before it: the connect's
    // reading is the opening (with its time); the closing was asked now.
    const first = app.kit.core.db.prepare<[], { first_seen_at_ms: number }>('SELECT first_seen_at_ms FROM balance_history ORDER BY id LIMIT 1').get();
    expect(report.balance.start).toMatchObject({ known: true, balanceFen: 100_000_00, atMs: first?.first_seen_at_ms, fresh: false });
    expect(report.balance.end).toMatchObject({ known: true, fresh: true });
    expect(report.balance.unexplainedFen).toBe(0);
    expect(report.verdict).toEqual({ status: 'clean', balance: 'matches', balanceMissing: null });
    const ledger = await app.merchant.control<{ entries: { clientOrderRef: string; amount: string }[] }>('GET', `/control/ledger/${app.account.userId}`);
    const charged = ledger.entries.filter((e) => refs.includes(e.clientOrderRef)).reduce((sum, e) => sum + Math.round(Number(e.amount) * 100), 0);
    expect(report.balance.chargesFen).toBe(charged);
    expect(report.totals.merchantChargedFen).toBe(charged);
    expect(report.totals.bookChargedFen).toBe(charged);
    expect(await app.kit.ok('books.reconcileLatest')).toEqual(report);
  });

  it('never says "no differences" when the balance could not be checked: no reading before the first order', async () => {
    const app = await open();
    await placeCompletedCard(app.kit, app.merchant, app.catalog, 1);
    // As if the app had never read the balance before the order: only the reading asked now is left.
    app.kit.core.db.prepare('DELETE FROM balance_history').run();
    const report = await app.kit.ok('books.reconcile', { fromDay: today() });
    expect(report.differences).toEqual([]);
    expect(report.balance.start.known).toBe(false);
    expect(report.balance.unexplainedFen).toBeNull();
    expect(report.verdict).toEqual({ status: 'notChecked', balance: 'notChecked', balanceMissing: 'start' });
  });

  it('finds a balance changed behind the app’s back, and an amount changed at the merchant without adopting it', async () => {
    const app = await open();
    const { kit, merchant, catalog } = app;
    const ref = await placeCompletedCard(kit, merchant, catalog, 2);
    const ledger = await merchant.control<{ balance: string; entries: { clientOrderRef: string; amount: string }[] }>('GET', `/control/ledger/${app.account.userId}`);
    const chargedFen = Math.round(Number(ledger.entries.find((e) => e.clientOrderRef === ref)?.amount) * 100);
    await merchant.control('POST', `/control/accounts/${app.account.userId}`, { balance: (Number(ledger.balance) - 8666).toFixed(2) });
    const changed = await tamper(merchant, ref, { totalAmount: ((chargedFen - 1000) / 100).toFixed(2) });
    expect(Math.round(changed.totalAmount * 100)).toBe(chargedFen - 1000);
    // The app reads the changed order (a refresh): its charge stays what the ledger charged.
    await kit.ok('orders.refresh', { clientOrderRef: ref });
    const report = await kit.ok('books.reconcile', { fromDay: today() });
    expect(report.differences).toMatchObject([{ kind: 'mismatch', clientOrderRef: ref, fields: ['amount'], merchant: { totalFen: chargedFen - 1000 }, local: { totalFen: chargedFen } }]);
    expect(report.balance.unexplainedFen).toBe(-8666_00);
    expect(report.balance.chargesFen).toBe(chargedFen);
    expect(report.totals.bookChargedFen).toBe(chargedFen);
    expect(report.verdict).toEqual({ status: 'differences', balance: 'differs', balanceMissing: null });
    // Refreshing from the reconciliation does not adopt the amount either.
    const again = await kit.ok('books.refreshOrder', { clientOrderRef: ref });
    expect(again?.differences.map((d) => d.kind)).toEqual(['mismatch']);
  });

  it('finds a card the merchant took back although the vault and the units still agree', async () => {
    const app = await open();
    const { kit, merchant, catalog } = app;
    const ref = await placeCompletedCard(kit, merchant, catalog, 2);
    const other = await placeCompletedCard(kit, merchant, catalog, 1);
    await tamper(merchant, ref, { cards: 1 });
    const report = await kit.ok('books.reconcile', { fromDay: today() });
    expect(report.differences).toMatchObject([{ kind: 'cards', clientOrderRef: ref, units: 2, merchantCards: 1, vaultCards: 2 }]);
    expect(report.differences.some((d) => d.clientOrderRef === other)).toBe(false);
    expect(report.totals.cardOrdersCompared).toBe(2);
    expect(report.verdict.status).toBe('differences');
  });

  it('one definition of the day’s money: spend = reconciliation = the ledger to the fen after a mixed day', async () => {
    const app = await open();
    const { kit, merchant, catalog } = app;
    const a = await placeCompletedCard(kit, merchant, catalog, 2);
    const b = await placeCompletedCard(kit, merchant, catalog, 1);
    // A partial refund, credited.
    await orderDetailWhen(kit, a, 'refundable', (d) => d.allowedActions.includes('refund'));
    await kit.ok('orders.requestRefund', { clientOrderRef: a, amountFen: 1_23, reason: 'one code did not work' });
    await merchant.advance(a, 'refund.succeeded');
    await orderDetailWhen(kit, a, 'the refund', (d) => d.refundedFen === 1_23);
    // A failure, refunded in full by the merchant.
    const c = await placeCard(kit, catalog, 1);
    await merchant.advance(c, 'processing');
    await merchant.advance(c, 'failed');
    await kit.ok('orders.refresh', { clientOrderRef: c });
    await orderDetailWhen(kit, c, 'the failure', (d) => d.state === 'failed');
    // Another program on the account, and the merchant's own shop; then an amount changed at the merchant.
    const elsewhere = await secondClient(merchant, app.account).placeForeign(catalog, 1);
    const pick = catalog.find((p, v) => goodCard(p, v), 'a card that is supplied');
    const shop = `SHOP-${Date.now()}`;
    await merchant.control('POST', `/control/accounts/${app.account.userId}/orders`, { clientOrderRef: shop, productRef: pick.product.productRef, ...(pick.product.variants.length > 1 ? { variantRef: pick.variant.variantRef } : {}), units: 1 });
    const ledgerBefore = await merchant.control<{ entries: { clientOrderRef: string; amount: string }[] }>('GET', `/control/ledger/${app.account.userId}`);
    const chargedB = Math.round(Number(ledgerBefore.entries.find((e) => e.clientOrderRef === b)?.amount) * 100);
    await tamper(merchant, b, { totalAmount: ((chargedB - 1000) / 100).toFixed(2) });
    await kit.ok('orders.refresh', { clientOrderRef: b });

    const first = await kit.ok('books.reconcile', { fromDay: today() });
    expect(kinds(first)).toEqual([`foreign:${elsewhere.clientOrderRef}`, `foreign:${shop}`, `mismatch:${b}`].sort());
    await kit.ok('books.recordForeign', { clientOrderRef: elsewhere.clientOrderRef });
    const report = await kit.ok('books.recordForeign', { clientOrderRef: shop });
    if (report === null) throw new Error('no report');
    expect(kinds(report)).toEqual([`mismatch:${b}`]);

    const ledger = await merchant.control<{ entries: { kind: string; amount: string }[] }>('GET', `/control/ledger/${app.account.userId}`);
    const sum = (kind: string): number => ledger.entries.filter((e) => e.kind === kind).reduce((total, e) => total + Math.round(Number(e.amount) * 100), 0);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const spend = await kit.ok('books.spend', { from: today(), to: today(), timeZone: zone });
    expect({ charged: spend.totals.chargedFen, refunded: spend.totals.refundedFen }).toEqual({ charged: sum('charge'), refunded: sum('refund') });
    expect({ charged: report.totals.bookChargedFen, refunded: report.totals.bookRefundedFen }).toEqual({ charged: sum('charge'), refunded: sum('refund') });
    expect(spend.totals.orders).toBe(5);
    // The balance moved exactly as the books say: the changed amount is a difference, not the money.
    expect(report.balance.unexplainedFen).toBe(0);
    expect(report.verdict).toEqual({ status: 'differences', balance: 'matches', balanceMissing: null });
    // Both exports are built from these reports: the day's row and the reconciliation's book rows say the same.
    const day = spendTable(spend, 'days', 'en').rows[0];
    expect(day?.slice(2, 4)).toEqual([{ fen: sum('charge') }, { fen: sum('refund') }]);
    const table = reconcileReportTable(report, 'en').rows;
    expect(table.find((r) => r[1] === 'Charges in the books')?.[7]).toEqual({ fen: sum('charge') });
    expect(table.find((r) => r[1] === 'Refunds in the books')?.[7]).toEqual({ fen: sum('refund') });
  });

  it('finds each kind of difference, and each action fixes its own (database and merchant checked)', async () => {
    const app = await open();
    const { kit, merchant, catalog } = app;
    const other = secondClient(merchant, app.account);
    const stateRef = await placeCompletedCard(kit, merchant, catalog, 1);
    const unitsRef = await placeCompletedCard(kit, merchant, catalog, 1);
    const lostCardRef = await placeCompletedCard(kit, merchant, catalog, 2);
    const shortRef = await placeCard(kit, catalog, 2);
    const droppedRef = await placeCard(kit, catalog, 1);
    const foreign = await other.placeForeign(catalog);

    // (b) state, units and amount changed behind the app's back (no webhook).
    await tamper(merchant, stateRef, { state: 'failed' });
    await tamper(merchant, unitsRef, { units: 3, totalAmount: '999.99' });
    // (c) one card lost from the vault; another order delivered one card short of its units.
    kit.core.db.prepare('DELETE FROM cards WHERE client_order_ref = ? AND seq = 1').run(lostCardRef);
    await merchant.advance(shortRef, 'processing');
    await merchant.advance(shortRef, 'completed');
    await tamper(merchant, shortRef, { cards: 1 });
    await kit.ok('orders.refresh', { clientOrderRef: shortRef });
    // (d) the merchant forgets an order the app placed.
    await merchant.control('POST', `/control/orders/${droppedRef}/drop`);

    const report = await kit.ok('books.reconcile', { fromDay: today(), toDay: today() });
    expect(kinds(report)).toEqual(
      [`foreign:${foreign.clientOrderRef}`, `mismatch:${stateRef}`, `mismatch:${unitsRef}`, `cards:${unitsRef}`, `cards:${lostCardRef}`, `cards:${shortRef}`, `notReceived:${droppedRef}`].sort(),
    );
    const byRef = new Map(report.differences.map((d) => [`${d.kind}:${d.clientOrderRef}`, d]));
    expect(byRef.get(`mismatch:${stateRef}`)).toMatchObject({ fields: ['state'], merchant: { state: 'failed' }, local: { state: 'completed' } });
    expect(byRef.get(`mismatch:${unitsRef}`)).toMatchObject({ fields: ['amount', 'units'], merchant: { units: 3, totalFen: 999_99 } });
    expect(byRef.get(`cards:${lostCardRef}`)).toMatchObject({ units: 2, merchantCards: 2, vaultCards: 1 });
    expect(byRef.get(`cards:${shortRef}`)).toMatchObject({ units: 2, merchantCards: 1, vaultCards: 1 });
    expect(byRef.get(`notReceived:${droppedRef}`)).toMatchObject({ intentStatus: 'accepted' });
    // Three units at the merchant with one card delivered: the count is in doubt, and differs.
    expect(byRef.get(`cards:${unitsRef}`)).toMatchObject({ units: 3, merchantCards: 1, vaultCards: 1 });
    expect(report.totals.differences).toBe(7);

    // Refresh: the authenticated detail through the tracker fixes the state and fills the lost card.
    const afterState = await kit.ok('books.refreshOrder', { clientOrderRef: stateRef });
    expect(kinds(afterState ?? report)).not.toContain(`mismatch:${stateRef}`);
    expect(kit.core.db.prepare('SELECT state FROM orders WHERE client_order_ref = ?').get(stateRef)).toEqual({ state: 'failed' });
    const afterCard = await kit.ok('books.refreshOrder', { clientOrderRef: lostCardRef });
    expect(kinds(afterCard ?? report)).not.toContain(`cards:${lostCardRef}`);
    expect(kit.core.db.prepare('SELECT count(*) AS n FROM cards WHERE client_order_ref = ?').get(lostCardRef)).toEqual({ n: 2 });

    // Record foreign: stored read-only (not an intent), counted in the books, gone from the differences.
    const afterForeign = await kit.ok('books.recordForeign', { clientOrderRef: foreign.clientOrderRef });
    expect(kinds(afterForeign ?? report)).not.toContain(`foreign:${foreign.clientOrderRef}`);
    expect(afterForeign?.totals.foreignRecorded).toBe(1);
    expect(kit.core.db.prepare('SELECT state, total_fen FROM foreign_orders WHERE client_order_ref = ?').get(foreign.clientOrderRef)).toEqual({ state: foreign.state, total_fen: Math.round(foreign.totalAmount * 100) });
    expect(kit.core.db.prepare('SELECT count(*) AS n FROM order_intents WHERE client_order_ref = ?').get(foreign.clientOrderRef)).toEqual({ n: 0 });
    const refused = await kit.call('orders.cancel', { clientOrderRef: foreign.clientOrderRef });
    expect(refused.ok).toBe(false);
    // One of the app's own orders is never recorded as foreign.
    const own = await kit.call('books.recordForeign', { clientOrderRef: stateRef });
    expect(own.ok ? null : own.error.code).toBe('ACTION_NOT_ALLOWED');

    // After-sales for the missing card: the existing open flow; the merchant now has a case on it.
    expect((await other.order(shortRef)).data.allowedActions).toContain('aftersale');
    await kit.ok('aftersales.open', { clientOrderRef: shortRef, category: 'notReceived', description: '收到 1 张卡密，应为 2 张', images: [] });
    expect((await other.order(shortRef)).data.allowedActions).not.toContain('aftersale');
    expect(kit.core.db.prepare('SELECT count(*) AS n FROM aftersale_cases WHERE client_order_ref = ?').get(shortRef)).toEqual({ n: 1 });

    // The report and its exports carry no card secret of the sandbox.
    const passwords: string[] = [];
    for (const ref of [stateRef, unitsRef, lostCardRef, shortRef, foreign.clientOrderRef]) {
      const wire = await other.order(ref);
      for (const card of wire.data.card_list ?? []) passwords.push(card.card_password, card.card_no);
    }
    expect(passwords.length).toBeGreaterThan(3);
    const latest = JSON.stringify(await kit.ok('books.reconcileLatest'));
    const stored = JSON.stringify(kit.core.db.prepare('SELECT report_json FROM reconcile_runs').all()) + JSON.stringify(kit.core.db.prepare('SELECT item_json FROM reconcile_items').all());
    // The exports, written where the host chose (CSV as text, XLSX as its unzipped sheet).
    const files: string[] = [];
    kit.host.chooseExportPath = (name: string) => Promise.resolve(join(kit.dataDir, name));
    for (const format of ['csv', 'xlsx'] as const) {
      const written = await kit.ok('books.exportReconcile', { format, language: 'en' });
      expect(written.status).toBe('written');
      if (written.status === 'written') files.push(format === 'csv' ? readFileSync(written.path, 'utf8') : JSON.stringify(readXlsx(readFileSync(written.path))));
    }
    expect(files[0]).toContain(unitsRef);
    // The client ref a code cell in the CSV (contract §16.1): quoted, one TAB after it, kept whole by a spreadsheet.
    expect(files[0]).toContain(`"${unitsRef}\t"`);
    expect(files[1]).toContain(unitsRef);
    for (const secret of passwords) {
      expect(latest.includes(secret)).toBe(false);
      expect(stored.includes(secret)).toBe(false);
      for (const file of files) expect(file.includes(secret)).toBe(false);
    }
  });

  it('looks up an unknown outcome instead of assuming it, and never expects an intent not sent yet', async () => {
    const app = await open();
    const { kit, merchant, catalog } = app;
    const lost = await placeCard(kit, catalog, 1);
    const unseen = await placeCard(kit, catalog, 1);
    const services = await kit.core.merchant();
    // No worker may resolve these meanwhile: the state is the one a crash mid-send leaves.
    await services.stopWorkers();
    const forget = kit.core.db.transaction((ref: string) => {
      kit.core.db.prepare('DELETE FROM order_state_history WHERE client_order_ref = ?').run(ref);
      kit.core.db.prepare('DELETE FROM orders WHERE client_order_ref = ?').run(ref);
      kit.core.db.prepare("UPDATE order_intents SET status = 'unknown' WHERE client_order_ref = ?").run(ref);
    });
    forget(lost);
    forget(unseen);
    await merchant.control('POST', `/control/orders/${lost}/drop`);
    const now = Math.floor(Date.now() / 1000);
    kit.core.db
      .prepare("INSERT INTO order_intents (client_order_ref, product_ref, product_type, units, status, created_at, updated_at) VALUES ('queued-ref-1', 1, 'card', 1, 'queued', ?, ?)")
      .run(now, now);
    const before = kit.requests.length;
    const report = await services.reconciliation.run({ fromDay: today() });
    expect(kinds(report)).toEqual([`mismatch:${unseen}`, `notReceived:${lost}`].sort());
    expect(report.differences.find((d) => d.kind === 'notReceived')).toMatchObject({ intentStatus: 'unknown' });
    expect(report.differences.find((d) => d.kind === 'mismatch')).toMatchObject({ fields: ['notStored'], local: null });
    expect(report.totals.notSentYet).toBe(1);
    // One list page and one look-up (the lost order): no other order read. The catalog sync of the
    // app may still be reading products and the balance meanwhile.
    const asked = kit.requests
      .slice(before)
      .map((r) => `${r.method} ${new URL(r.url).pathname.replace(/^.*\/openapi\/v1/, '')}`)
      .filter((line) => line.startsWith('GET /orders'));
    expect(asked).toEqual(['GET /orders', `GET /orders/${lost}`]);
    expect(report.requests).toBe(2);
  });

  it('checks the balance between known boundaries: a foreign order is the unexplained difference until it is recorded', async () => {
    const app = await open();
    const { kit, merchant, catalog } = app;
    // The balance was seen since before midnight (the connect's run, opened an hour before the day began).
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    kit.core.db.prepare('UPDATE balance_history SET first_seen_at_ms = ? WHERE id = (SELECT min(id) FROM balance_history)').run(midnight.getTime() - 3_600_000);
    await placeCompletedCard(kit, merchant, catalog, 1);
    const foreign = await secondClient(merchant, app.account).placeForeign(catalog, 2);
    const report = await kit.ok('books.reconcile', { fromDay: today() });
    expect(report.balance.start).toMatchObject({ known: true, balanceFen: 100_000_00 });
    expect(report.balance.end.known, JSON.stringify({ b: report.balance, h: kit.core.db.prepare('SELECT * FROM balance_history').all() })).toBe(true);
    const ledger = await merchant.control<{ balance: string }>('GET', `/control/ledger/${app.account.userId}`);
    expect(report.balance.end.known && report.balance.end.balanceFen).toBe(Math.round(Number(ledger.balance) * 100));
    expect(report.balance.unexplainedFen).toBe(-Math.round(foreign.totalAmount * 100));
    const recorded = await kit.ok('books.recordForeign', { clientOrderRef: foreign.clientOrderRef });
    expect(recorded?.balance.unexplainedFen).toBe(0);
  });

  it('resumes an interrupted run at the next page, reading no page twice, with the same result', async () => {
    const app = await open();
    const other = secondClient(app.merchant, app.account);
    for (let i = 0; i < 5; i++) await other.placeForeign(app.catalog);
    const services = await app.kit.core.merchant();
    const stop = new AbortController();
    const interrupted = services.reconciliation.run({ fromDay: today() }, { pageSize: 2, signal: stop.signal, onProgress: (p) => p.pagesRead === 2 && stop.abort(new Error('killed')) });
    await expect(interrupted).rejects.toThrow();
    expect(app.kit.core.db.prepare("SELECT status, next_page, pages_read FROM reconcile_runs").get()).toEqual({ status: 'paging', next_page: 3, pages_read: 2 });
    const resumed = await services.reconciliation.run({ fromDay: today() }, { pageSize: 2 });
    expect(resumed.resumed).toBe(true);
    expect(resumed.pagesRead).toBe(3);
    expect(resumed.totals.merchantOrders).toBe(5);
    expect(resumed.differences.filter((d) => d.kind === 'foreign')).toHaveLength(5);
    expect(listRequests(app)).toEqual(['1', '2', '3']);
    // The same as an uninterrupted run of the same range.
    const fresh = await services.reconciliation.run({ fromDay: today() }, { pageSize: 2 });
    expect(kinds(fresh)).toEqual(kinds(resumed));
    // A double press joins the run in flight: one run, each page read once.
    const before = listRequests(app).length;
    const [a, b] = await Promise.all([app.kit.ok('books.reconcile', { fromDay: today() }), app.kit.ok('books.reconcile', { fromDay: today() })]);
    expect(a).toEqual(b);
    expect(listRequests(app).length - before).toBe(1);
  });

  it('pages a list that grows while it is read: every order once, no failure', async () => {
    const app = await open();
    const other = secondClient(app.merchant, app.account);
    const before: string[] = [];
    for (let i = 0; i < 6; i++) before.push((await other.placeForeign(app.catalog)).clientOrderRef);
    const services = await app.kit.core.merchant();
    const inserted: Promise<{ clientOrderRef: string }>[] = [];
    const report = await services.reconciliation.run({ fromDay: today() }, { pageSize: 2, onProgress: (p) => p.pagesRead === 1 && inserted.push(other.placeForeign(app.catalog), other.placeForeign(app.catalog)) });
    const late = await Promise.all(inserted);
    const listed = report.differences.map((d) => d.clientOrderRef);
    expect(new Set(listed).size).toBe(listed.length);
    for (const ref of before) expect(listed).toContain(ref);
    // Placed after the run began: outside its list unless placed in its very first second.
    const lateIn = late.filter((o) => listed.includes(o.clientOrderRef)).length;
    expect(listed.length).toBe(6 + lateIn);
  });
});
