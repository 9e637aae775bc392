// Issue 24, point 1, as a buyer meets it (built renderer, Chromium, web host connected through the
// connect form to a sandbox that a CLI in another data folder also uses), with the sandbox's ledger as
// the truth: reconciliation is green only when every order and the balance were checked (a day the
// app never read the balance for says so); a card the merchant took back is flagged in the UI and the
// CLI; after a mixed day (app orders, the CLI's order, a shop order recorded from reconciliation,
// partial refunds, a changed amount) spend = reconciliation = ledger to the fen, exports included;
// a balance changed behind the app's back turns the headline, with both readings and their times.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseYuanText } from '../../src/shared/money';
import { orderWithCards, withRunner } from '../cli/cards-kit';
import { runCli } from '../cli/cli-kit';
import { buildCliBundle } from '../support/cli-bundle';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { buyCardOrder, closeOverlays, connectMerchant } from './support/app-steps';
import { bridgeCall } from './support/bridge-call';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl, type ControlProduct, type Ledger, type SandboxControl } from './support/sandbox-control';
import { untranslatedOn } from './support/visible-text';
import { startWebHost, type RunningWebHost } from './support/web-host-process';
import { pickDay } from './support/day-picker';

const DOCS_SCREENS = join(process.cwd(), 'docs', 'screens');
let root: string;
let merchant: RunningSandbox;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let control: SandboxControl;
let products: ControlProduct[];
let cliDir: string;
const bought: { ref: string; productRef: number }[] = [];
let cliRef = '';

/** A day in this machine's zone (where core runs: reconciliation's days), offset from today. */
const day = (offset: number): string => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** Today in the page's zone (the dashboard's days). */
const pageToday = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
const fen = (yuan: string): number => Math.round(Number(yuan) * 100);
const fenOfText = (text: string | null): number => parseYuanText((text ?? '').replace(/[¥,\s]/g, '')) ?? Number.NaN;
const sums = (ledger: Ledger): { charged: number; refunded: number } => ({
  charged: ledger.entries.filter((e) => e.kind === 'charge').reduce((s, e) => s + fen(e.amount), 0),
  refunded: ledger.entries.filter((e) => e.kind === 'refund').reduce((s, e) => s + fen(e.amount), 0),
});
const row = (on: Page, kind: string, ref: string) => on.locator(`[data-testid="reconcile-row"][data-kind="${kind}"][data-ref="${ref}"]`);
const cli = (args: readonly string[]) => runCli(cliDir, args, { secrets: [merchant.apiKey], timeoutMs: 120_000 });

async function photograph(on: Page, name: string): Promise<void> {
  await on.addStyleTag({ content: '.ant-notification { display: none !important; }' });
  await on.setViewportSize({ width: 1440, height: 1100 });
  await on.waitForTimeout(400);
  await on.screenshot({ path: join(DOCS_SCREENS, `${name}.png`), fullPage: true });
}

async function reconcile(on: Page, from: string, to: string): Promise<void> {
  await closeOverlays(on);
  await on.getByTestId('nav-reconcile').click();
  await on.getByTestId('reconcile-screen').waitFor();
  await pickDay(on.getByTestId('reconcile-from'), from);
  await pickDay(on.getByTestId('reconcile-to'), to);
  const headline = on.getByTestId('reconcile-headline');
  const before = (await headline.count()) === 0 ? null : await headline.getAttribute('data-finished-at');
  await on.getByTestId('reconcile-run').click();
  // This run's report replaces the one shown.
  await expect.poll(async () => ((await headline.count()) === 0 ? null : await headline.getAttribute('data-finished-at')), { timeout: 90_000 }).not.toBe(before);
  await expect.poll(async () => (await on.getByTestId('reconcile-report').textContent())?.includes(`${from} 至 ${to}`), { timeout: 30_000 }).toBe(true);
}

/** The same screen in another look (a fresh browser context on the latest report). */
async function photographIn(name: string, scheme: 'light' | 'dark', testId: string): Promise<void> {
  const opened = await openApp(browser, await host.newLaunchUrl(), 'zh-CN', { colorScheme: scheme });
  await closeOverlays(opened.page);
  await opened.page.getByTestId('nav-reconcile').click();
  await opened.page.getByTestId(testId).waitFor({ timeout: 30_000 });
  expect(await untranslatedOn(opened.page)).toEqual([]);
  await photograph(opened.page, name);
  expect(opened.problems).toEqual([]);
  await opened.context.close();
}

beforeAll(async () => {
  await buildCliBundle();
  root = mkdtempSync(join(tmpdir(), 'procure-e2e-books-'));
  merchant = await startSandbox(['--ca-dir', join(root, 'ca'), '--products', '80', '--seed', '3']);
  host = await startWebHost({ env: { NODE_EXTRA_CA_CERTS: merchant.caCertFile } });
  control = sandboxControl(merchant.controlUrl, merchant.controlToken);
  products = await control.products(500);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
  await page.getByTestId('connect-screen').waitFor();
  await connectMerchant(page, merchant);
  // The CLI in a folder of its own, on the same account: another program of the buyer.
  cliDir = join(root, 'cli-data');
  const connected = await runCli(cliDir, ['connect', '--base-url', merchant.baseUrl, '--user-id', merchant.userId, '--ca-cert', merchant.caCertFile], { apiKeyEnv: merchant.apiKey });
  expect(connected.code, connected.stderr).toBe(0);
}, 240_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await screenshot(page, `books-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    console.error(host.stderr().slice(-4000));
  }
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await merchant?.stop();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('books that are checked or say they are not', () => {
  it('is green only when every order and the balance were checked, with the readings and their times', async () => {
    bought.push(await buyCardOrder(page, products, 1, []));
    await reconcile(page, day(0), day(0));
    await page.getByTestId('reconcile-clean').waitFor();
    expect(await page.getByTestId('reconcile-headline').getAttribute('data-status')).toBe('clean');
    // The opening is the connect's reading (with its time), the closing read from the merchant now.
    for (const side of ['start', 'end']) {
      expect(await page.getByTestId(`reconcile-balance-${side}`).getAttribute('data-known')).toBe('true');
      expect(await page.getByTestId(`reconcile-balance-${side}-time`).textContent()).toMatch(/\d{1,2}:\d{2}:\d{2}/);
    }
    expect(await page.getByTestId('reconcile-balance-end-time').textContent()).toContain('对账时从商户读取');
    expect(Number(await page.getByTestId('reconcile-unexplained').getAttribute('data-fen'))).toBe(0);
    expect(await untranslatedOn(page)).toEqual([]);
    await photograph(page, 'reconcile-checked-zh-light');
    await photographIn('reconcile-checked-zh-dark', 'dark', 'reconcile-clean');
  }, 300_000);

  it('says the balance could not be checked for a day the app never read it, never "no differences"', async () => {
    await reconcile(page, day(-1), day(-1));
    await page.getByTestId('reconcile-not-checked').waitFor();
    expect(await page.getByTestId('reconcile-clean').count()).toBe(0);
    expect(await page.getByTestId('reconcile-headline').getAttribute('data-status')).toBe('notChecked');
    expect(await page.getByTestId('reconcile-headline-balance').textContent()).toContain('期初余额未知');
    expect(await page.getByTestId('reconcile-balance-start').getAttribute('data-known')).toBe('false');
    await photograph(page, 'reconcile-not-checked-zh-light');
    await photographIn('reconcile-not-checked-zh-dark', 'dark', 'reconcile-not-checked');
  }, 180_000);

  it('flags a card the merchant took back (2 to 1), in the UI and in the CLI', async () => {
    const two = await buyCardOrder(page, products, 2, []);
    bought.push(two);
    await control.tamper(two.ref, { cards: 1 });
    // The CLI's own order from the other folder, also taken back to one card.
    // `run` beside it hears of the completion and stores both cards in that folder's vault.
    cliRef = await withRunner(cliDir, () => orderWithCards(cliDir, two.productRef, 2));
    expect((await control.ledger(merchant.userId)).entries.some((e) => e.clientOrderRef === cliRef)).toBe(true);
    await control.tamper(cliRef, { cards: 1 });

    await reconcile(page, day(0), day(0));
    const flagged = row(page, 'cards', two.ref);
    await flagged.waitFor();
    expect(await flagged.textContent()).toContain('1 张卡密，应为 2 张');
    expect(await page.getByTestId('reconcile-clean').count()).toBe(0);
    // The CLI's order is not the app's: placed elsewhere, never its card count.
    await row(page, 'foreign', cliRef).waitFor();

    const text = await cli(['reconcile', '--from', day(0)]);
    expect(text.code, text.stderr).toBe(6);
    expect(text.stdout.split('\n')[0]).toMatch(/^(DIFFERENCES|NOT FULLY CHECKED)/);
    expect(text.stdout).toContain(`cards\t`);
    expect(text.stdout).toMatch(new RegExp(`${cliRef}\\tmerchant 1 cards, vault 2, units 2`));
  }, 300_000);

  it('after a mixed day, spend = reconciliation = the ledger to the fen (exports too); a changed amount is a difference', async () => {
    const first = bought[0];
    const two = bought[1];
    if (first === undefined || two === undefined) throw new Error('the orders of the tests before are missing');
    const changed = await buyCardOrder(page, products, 1, []);
    // An order at the merchant's own shop, on the same account.
    const shopRef = `SHOP-${Date.now()}`;
    await control.shopOrder(merchant.userId, { clientOrderRef: shopRef, productRef: first.productRef, units: 1 });
    // Partial refunds through the app, credited by the merchant.
    await bridgeCall(page, 'orders.requestRefund', { clientOrderRef: first.ref, amountFen: 37, reason: 'e2e: one code did not open' });
    await bridgeCall(page, 'orders.requestRefund', { clientOrderRef: two.ref, amountFen: 1_05, reason: 'e2e: a partial refund' });
    await expect.poll(async () => (await bridgeCall(page, 'orders.get', { clientOrderRef: first.ref })).refundedFen, { timeout: 90_000, interval: 2_000 }).toBe(37);
    await expect.poll(async () => (await bridgeCall(page, 'orders.get', { clientOrderRef: two.ref })).refundedFen, { timeout: 90_000, interval: 2_000 }).toBe(1_05);
    // The merchant changes an amount behind the app's back; the app reads the order again.
    const charged = fen((await control.ledger(merchant.userId)).entries.find((e) => e.clientOrderRef === changed.ref)?.amount ?? 'NaN');
    await control.tamper(changed.ref, { totalAmount: ((charged - 1000) / 100).toFixed(2) });
    await bridgeCall(page, 'orders.refresh', { clientOrderRef: changed.ref });

    await reconcile(page, day(0), day(0));
    const mismatch = row(page, 'mismatch', changed.ref);
    await mismatch.waitFor();
    expect(await mismatch.textContent()).toContain('金额');
    // Recorded from reconciliation: the shop's order and the CLI's.
    for (const ref of [shopRef, cliRef]) {
      await row(page, 'foreign', ref).getByTestId('reconcile-record-foreign').click();
      await expect.poll(() => row(page, 'foreign', ref).count(), { timeout: 30_000 }).toBe(0);
    }
    await mismatch.waitFor();

    const truth = sums(await control.ledger(merchant.userId));
    expect(truth.refunded).toBeGreaterThanOrEqual(1_42);
    const reconciled = {
      charged: Number(await page.getByTestId('reconcile-book-charged').getAttribute('data-fen')),
      refunded: Number(await page.getByTestId('reconcile-book-refunded').getAttribute('data-fen')),
    };
    const spend = await bridgeCall(page, 'books.spend', { from: pageToday(), to: pageToday(), timeZone: 'Asia/Shanghai' });
    expect({ reconciled, spend: { charged: spend.totals.chargedFen, refunded: spend.totals.refundedFen } }).toEqual({ reconciled: truth, spend: truth });
    // The balance moved exactly as the books say; the changed amount is the difference, not the money.
    expect(Number(await page.getByTestId('reconcile-unexplained').getAttribute('data-fen'))).toBe(0);
    expect(await page.getByTestId('reconcile-headline').getAttribute('data-status')).toBe('differences');

    // The dashboard shows the same, and both exports carry it.
    await closeOverlays(page);
    await page.getByTestId('nav-dashboard').click();
    await expect.poll(async () => fenOfText(await page.getByTestId('total-charged').locator('.ant-statistic-content').textContent()), { timeout: 30_000 }).toBe(truth.charged);
    const spendDownload = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('export-days').click();
    await page.getByTestId('export-days-csv').click();
    const spendFile = join(root, 'spend.csv');
    await (await spendDownload).saveAs(spendFile);
    const dayRow = readFileSync(spendFile, 'utf8').split('\r\n').find((line) => line.startsWith(pageToday())) ?? '';
    expect(dayRow.split(',').slice(2, 4).map(fenOfText)).toEqual([truth.charged, truth.refunded]);

    await closeOverlays(page);
    await page.getByTestId('nav-reconcile').click();
    const reconcileDownload = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('reconcile-export').click();
    await page.getByTestId('reconcile-export-csv').click();
    const reconcileFile = join(root, 'reconcile.csv');
    await (await reconcileDownload).saveAs(reconcileFile);
    const lines = readFileSync(reconcileFile, 'utf8').split('\r\n');
    const amountOf = (item: string): number => fenOfText(lines.find((line) => line.split(',')[1] === item)?.split(',')[7] ?? null);
    expect([amountOf('账本扣款'), amountOf('账本退款')]).toEqual([truth.charged, truth.refunded]);
  }, 420_000);

  it('turns the headline when the balance changes behind the app’s back: the readings, their times, the amount', async () => {
    const { balance } = await control.ledger(merchant.userId);
    await control.setBalance(merchant.userId, (Number(balance) - 8666).toFixed(2));
    await reconcile(page, day(0), day(0));
    await expect.poll(() => page.getByTestId('reconcile-headline').getAttribute('data-balance'), { timeout: 30_000 }).toBe('differs');
    expect(await page.getByTestId('reconcile-clean').count()).toBe(0);
    expect(await page.getByTestId('reconcile-headline-balance').textContent()).toContain('-¥8,666.00');
    expect(Number(await page.getByTestId('reconcile-unexplained').getAttribute('data-fen'))).toBe(-8666_00);
    const end = page.getByTestId('reconcile-balance-end');
    expect(Number(await end.getAttribute('data-fen'))).toBe(fen((await control.ledger(merchant.userId)).balance));
    for (const side of ['start', 'end']) expect(await page.getByTestId(`reconcile-balance-${side}-time`).textContent()).toMatch(/\d{1,2}:\d{2}:\d{2}/);
    await photograph(page, 'reconcile-balance-differs-zh-light');
    expect(problems).toEqual([]);
  }, 180_000);
});
