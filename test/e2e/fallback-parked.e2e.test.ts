// Issue 24 point 4 in Chromium, two sandboxes (A = the demo, p1; B = a second sandbox, p2; linked under a
// rule): A sold out behind the app between opening the dialog and the send; the guard parks the order and
// the same dialog offers B; choosing it withdraws A's intent, B is confirmed anew: one charge at B, none at
// A (the ledgers). Link card and compare row then show A out of stock (no sync); the product drawer's
// sold-out variant and a parked order's detail lead to B too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { closeOverlays, connectDemo, connectMerchant, ensureCatalog, MERCHANT_WAIT_MS, openProduct } from './support/app-steps';
import { bridgeCall } from './support/bridge-call';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl, type SandboxControl } from './support/sandbox-control';
import { chargesOf, pickSharedProduct, type SharedProduct } from './support/shared-products';
import { untranslatedOn } from './support/visible-text';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

const A_PRICE = '22.00';
const B_PRICE = '24.50';
const LIMIT_FEN = 2500;
const UNITS = 2;
const yuanToFen = (yuan: string): number => Math.round(Number(yuan) * 100);

let caDir: string;
let merchantB: RunningSandbox;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let controlA: SandboxControl;
let controlB: SandboxControl;
let userA = '';
let userB = '';
let pair: SharedProduct;

const keyA = (): { profileId: string; productRef: number; variantRef: number } => ({ profileId: 'p1', productRef: pair.a.productRef, variantRef: 0 });
const keyB = (): { profileId: string; productRef: number; variantRef: number } => ({ profileId: 'p2', productRef: pair.b.productRef, variantRef: 0 });

async function typeInto(box: Locator, text: string): Promise<void> {
  await box.click();
  await box.press('ControlOrMeta+a');
  await box.press('Backspace');
  if (text !== '') await box.pressSequentially(text);
}

async function openCompare(text: string): Promise<void> {
  await closeOverlays(page);
  await page.getByTestId('nav-compare').click();
  await page.getByTestId('compare-screen').waitFor();
  await page.getByTestId('compare-search').fill(text);
}

const memberRow = (profileId: string): Locator => page.getByTestId('link-card').first().locator(`[data-testid="link-member"][data-profile="${profileId}"]`);
const compareRowA = (): Locator => page.locator(`[data-testid="compare-row"][data-profile="p1"][data-product="${pair.a.productRef}"]`);

/** The screen in zh-CN, light and dark (the theme follows the system), into /tmp; no English on it. */
async function photograph(name: string): Promise<void> {
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(tmpdir(), `${name}-zh-${scheme}.png`) });
      expect(await untranslatedOn(page)).toEqual([]);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'procure-e2e-ca-'));
  merchantB = await startSandbox(['--ca-dir', caDir, '--products', '80', '--seed', '1']);
  host = await startWebHost({ env: { NODE_EXTRA_CA_CERTS: merchantB.caCertFile } });
  controlA = sandboxControl(host.controlUrl, host.controlToken);
  controlB = sandboxControl(merchantB.controlUrl, merchantB.controlToken);
  pair = pickSharedProduct(await controlA.products(500), await controlB.products(500), { units: UNITS, inventory: 'any' });
  // A cheaper than B and counting its stock (50 left): the link card marks A as the cheapest in stock.
  await controlA.changeProduct(pair.a.productRef, { variantRef: 0, price: A_PRICE, remainingUnits: 50 });
  await controlB.changeProduct(pair.b.productRef, { variantRef: 0, price: B_PRICE });
  const accountB = await controlB.createAccount('500');
  userB = accountB.userId;

  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
  await page.getByTestId('connect-screen').waitFor();
  await connectDemo(page);
  await page.getByTestId('connect-continue').click();
  await ensureCatalog(page);
  await page.getByTestId('nav-settings').click();
  userA = ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim();
  expect(userA).not.toBe('');
  await bridgeCall(page, 'profiles.add', { name: 'Merchant B' });
  await bridgeCall(page, 'profiles.switch', { profileId: 'p2' });
  await page.reload();
  await page.getByTestId('connect-screen').waitFor();
  await connectMerchant(page, { baseUrl: merchantB.baseUrl, userId: accountB.userId, apiKey: accountB.apiKey });
  await bridgeCall(page, 'profiles.switch', { profileId: 'p1' });

  // Both caches hold the pair's details (prices, stock), as the buyer's syncs left them.
  const want = JSON.stringify([yuanToFen(A_PRICE), 50, yuanToFen(B_PRICE)]);
  for (let started = Date.now(); ; await page.waitForTimeout(2_000)) {
    const [a, b] = await Promise.all([
      bridgeCall(page, 'catalog.product', { productRef: pair.a.productRef, profileId: 'p1' }),
      bridgeCall(page, 'catalog.product', { productRef: pair.b.productRef, profileId: 'p2' }),
    ]);
    const seen = JSON.stringify([a.variants[0]?.priceFen ?? null, a.variants[0]?.remainingUnits ?? null, b.variants[0]?.priceFen ?? null]);
    if (seen === want) break;
    if (Date.now() - started > 3 * MERCHANT_WAIT_MS) throw new Error(`the caches hold ${seen}, not ${want}`);
  }
  const link = await bridgeCall(page, 'links.link', { a: keyA(), b: keyB() });
  await bridgeCall(page, 'links.setRule', { linkId: link.linkId, rule: { maxUnitPriceFen: LIMIT_FEN, preference: ['p1', 'p2'] } });
  await page.reload();
  await ensureCatalog(page);
}, 400_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `fallback-parked-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await merchantB?.stop();
  if (caDir !== undefined) rmSync(caDir, { recursive: true, force: true });
});

describe('the fallback where the buyer is', () => {
  it('A sold out between opening the dialog and the send: the parked dialog offers B; choosing it places one order at B only; the link card and compare row then show A out of stock', async () => {
    const chargesA0 = chargesOf(await controlA.ledger(userA)).length;
    await openCompare(pair.name);
    await memberRow('p1').getByTestId('member-cheapest').waitFor();
    expect(await memberRow('p1').getByTestId('member-supply').getAttribute('data-supply')).toBe('available');
    await compareRowA().waitFor();
    expect(await compareRowA().getByTestId('supply-status').getAttribute('data-supply')).toBe('available');

    await memberRow('p1').getByTestId('member-order').click();
    const modal = page.getByTestId('order-modal');
    await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
    await typeInto(modal.locator('#order-units'), String(UNITS));
    await expect.poll(() => modal.getByTestId('order-total').textContent()).toContain('44.00');
    // A can supply as far as the app knows: nothing to offer yet.
    expect(await modal.getByTestId('order-offers').count()).toBe(0);

    // The merchant runs out after the dialog opened: the app is not told (no webhooks, no sync).
    await controlA.changeProduct(pair.a.productRef, { variantRef: 0, remainingUnits: 0 });
    await modal.getByTestId('order-submit').click();
    const confirmation = modal.getByTestId('order-confirmation');
    await confirmation.waitFor();
    expect(await confirmation.getByTestId('confirm-total').textContent()).toContain('44.00');
    await confirmation.getByTestId('order-place').click();

    // The pre-send check parks it, and the same dialog shows the offer at B.
    await modal.locator('[data-testid="order-outcome"][data-intent-status="unavailable"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    const parked = modal.getByTestId('parked-offers');
    await parked.waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await parked.getByTestId('order-offers').getAttribute('data-reason')).toBe('outOfStock');
    const offerB = parked.locator('[data-testid="order-offer"][data-profile="p2"]');
    expect(await offerB.getByTestId('order-offer-price').textContent()).toBe('¥24.50');
    expect(await offerB.textContent()).toContain('按你的规则会选这家');
    expect(await parked.getByTestId('parked-offers-note').textContent()).toContain('撤回');
    const refA = (await bridgeCall(page, 'orders.list', {})).find((row) => row.productRef === pair.a.productRef && row.intentStatus === 'unavailable')?.clientOrderRef;
    expect(refA).toBeDefined();
    expect(chargesOf(await controlA.ledger(userA))).toHaveLength(chargesA0);
    await photograph('fallback-parked-offers');

    // Choosing B: A's intent withdrawn (never sent), the dialog at B's price, which needs its own confirmation.
    await offerB.getByTestId('order-offer-choose').click();
    await modal.getByTestId('order-moved').waitFor();
    await modal.locator('[data-testid="order-merchant"][data-profile="p2"]').waitFor();
    await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
    expect((await bridgeCall(page, 'orders.get', { clientOrderRef: refA ?? '' })).intentStatus).toBe('withdrawn');
    expect(await modal.locator('#order-units').inputValue()).toBe(String(UNITS));
    await expect.poll(() => modal.getByTestId('order-total').textContent()).toContain('49.00');
    expect(chargesOf(await controlB.ledger(userB))).toEqual([]);
    await modal.getByTestId('order-submit').click();
    await confirmation.waitFor();
    expect(await confirmation.getByTestId('confirm-total').textContent()).toContain('49.00');
    await confirmation.getByTestId('order-place').dblclick();
    await modal.getByTestId('order-outcome').waitFor({ timeout: MERCHANT_WAIT_MS });

    // The money, from the merchants' own books: exactly one charge at B (confirmed units × B's price), none at A.
    await expect.poll(async () => chargesOf(await controlB.ledger(userB)).length, { timeout: MERCHANT_WAIT_MS }).toBe(1);
    const [charge] = chargesOf(await controlB.ledger(userB));
    expect(yuanToFen(charge?.amount ?? '0')).toBe(UNITS * yuanToFen(B_PRICE));
    expect((await bridgeCall(page, 'orders.get', { clientOrderRef: charge?.clientOrderRef ?? '' })).units).toBe(UNITS);
    const ledgerA = await controlA.ledger(userA);
    expect(chargesOf(ledgerA)).toHaveLength(chargesA0);
    expect(ledgerA.entries.some((entry) => entry.clientOrderRef === refA)).toBe(false);

    // Back on the compare screen it never left: A out of stock as the guard read it, B now the cheapest in stock.
    await modal.getByTestId('order-close').click();
    await expect.poll(() => memberRow('p1').getByTestId('member-supply').getAttribute('data-supply'), { timeout: 10_000 }).toBe('outOfStock');
    expect(await memberRow('p1').getByTestId('member-cheapest').count()).toBe(0);
    await memberRow('p2').getByTestId('member-cheapest').waitFor();
    await expect.poll(() => compareRowA().getByTestId('supply-status').getAttribute('data-supply'), { timeout: 10_000 }).not.toBe('available');
    expect(await compareRowA().getByTestId('compare-cheapest').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("the product drawer's out-of-stock variant, linked, leads to B's offer instead of a disabled Buy", async () => {
    const drawer = await openProduct(page, pair.a);
    const row = drawer.locator('[data-testid="variant-row"][data-variant-ref="0"]');
    await row.getByTestId('variant-other-merchants').waitFor();
    expect(await row.getByTestId('variant-buy').count()).toBe(0);
    // Under the rule the batch stays reachable as well (it goes to the rule's choice).
    expect(await row.getByTestId('variant-batch').count()).toBe(1);
    await photograph('fallback-drawer-other-merchants');
    await row.getByTestId('variant-other-merchants').click();
    const modal = page.getByTestId('order-modal');
    const offers = modal.getByTestId('order-offers');
    await offers.waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await offers.getAttribute('data-reason')).toBe('outOfStock');
    expect(await offers.locator('[data-testid="order-offer"][data-profile="p2"]').getByTestId('order-offer-price').textContent()).toBe('¥24.50');
    // The dialog, then the drawer (the focus left the drawer with the dialog: its own close button).
    await modal.locator('.ant-modal-close').click();
    await modal.waitFor({ state: 'hidden' });
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  });

  it("a parked order's detail, opened from the orders list, offers B too; choosing withdraws it and moves to B, where nothing is placed unconfirmed", async () => {
    const [chargesA0, chargesB0] = [chargesOf(await controlA.ledger(userA)).length, chargesOf(await controlB.ledger(userB)).length];
    // Placed as a script would (the bridge); the guard reads A, still sold out, and parks it.
    const placed = await bridgeCall(page, 'orders.place', { profileId: 'p1', productRef: pair.a.productRef, variantRef: 0, units: UNITS, unitPriceFen: yuanToFen(A_PRICE) });
    const ref = placed.clientOrderRef;
    await expect.poll(async () => (await bridgeCall(page, 'orders.get', { clientOrderRef: ref })).intentStatus, { timeout: MERCHANT_WAIT_MS }).toBe('unavailable');
    await page.getByTestId('nav-orders').click();
    await page.locator(`[data-testid="queue-row"][data-ref="${ref}"], [data-testid="order-row"][data-ref="${ref}"]`).first().click();
    const parked = page.getByTestId('order-detail').getByTestId('parked-offers');
    await parked.waitFor({ timeout: MERCHANT_WAIT_MS });
    await parked.locator('[data-testid="order-offer"][data-profile="p2"]').getByTestId('order-offer-choose').click();
    const modal = page.getByTestId('order-modal');
    await modal.getByTestId('order-moved').waitFor();
    await modal.locator('[data-testid="order-merchant"][data-profile="p2"]').waitFor();
    await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await modal.locator('#order-units').inputValue()).toBe(String(UNITS));
    expect((await bridgeCall(page, 'orders.get', { clientOrderRef: ref })).intentStatus).toBe('withdrawn');
    await modal.locator('.ant-modal-close').click();
    await modal.waitFor({ state: 'hidden' });
    expect(chargesOf(await controlA.ledger(userA))).toHaveLength(chargesA0);
    expect(chargesOf(await controlB.ledger(userB))).toHaveLength(chargesB0);
    expect(problems).toEqual([]);
  });
});
