// Two merchants side by side in Chromium (issue 17): the web host's demo merchant is the first
// profile; a second sandbox (its CA trusted as a buyer's system store would, through
// NODE_EXTRA_CA_CERTS; orders there stay where they are: --auto-advance off) is added through the
// header's switcher and connected through the form. Then: the shortcut switches, the orders list spans
// both with a merchant column and filter (checked against each sandbox's ledger), removing the second
// is refused while its order is open, and stopping the second sandbox turns only its profile offline.
// Pictures of the switcher, the remove dialog and the cross-merchant orders go to docs/screens in
// zh-CN and English, light and dark (the Chinese ones scanned for English).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { closeOverlays, connectDemo, ensureCatalog, fillPurchaseFields, goTo, MERCHANT_WAIT_MS, openOrderForm, pick, submitAndViewOrder, connectMerchant } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { purchasable, sandboxControl, type ControlProduct, type SandboxControl } from './support/sandbox-control';
import { untranslatedOn } from './support/visible-text';
import { startWebHost, type RunningWebHost } from './support/web-host-process';
import { PHOTO_LOOKS } from './support/photo-looks';

const DOCS_SCREENS = join(process.cwd(), 'docs', 'screens');
const SECOND = 'Second shop';

let caDir: string;
let second: RunningSandbox;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let demo: SandboxControl;
let other: SandboxControl;
let secondUserId = '';
const refs: { p1: string; p2: string } = { p1: '', p2: '' };

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'procure-e2e-ca-'));
  second = await startSandbox(['--ca-dir', caDir, '--auto-advance', 'off', '--seed', '7']);
  host = await startWebHost({ env: { NODE_EXTRA_CA_CERTS: second.caCertFile } });
  demo = sandboxControl(host.controlUrl, host.controlToken);
  other = sandboxControl(second.controlUrl, second.controlToken);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'en-US'));
  await page.getByTestId('connect-screen').waitFor();
  await connectDemo(page);
  await page.getByTestId('connect-continue').click();
  await ensureCatalog(page);
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `profiles-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await second?.stop();
  if (caDir !== undefined) rmSync(caDir, { recursive: true, force: true });
});

/** A card product delivered by the merchant, one fixed unit, no purchase details. */
function cardToBuy(products: readonly ControlProduct[]) {
  return pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
}

async function buyOne(products: readonly ControlProduct[]): Promise<string> {
  const { product, variant } = cardToBuy(products);
  const modal = await openOrderForm(page, product, variant);
  await fillPurchaseFields(page, modal);
  return submitAndViewOrder(page, modal);
}

const switcherName = () => page.getByTestId('profile-switcher-name').textContent();
const stateOf = (profileId: string) => page.locator(`[data-testid="merchant-row"][data-profile-id="${profileId}"] [data-testid="profile-state"]`).getAttribute('data-state');

describe('several merchants side by side', () => {
  it('adds a second merchant through the switcher (its name checked), connects it and buys there', async () => {
    // One merchant: the switcher names it; the lists have no merchant column.
    await page.getByTestId('profile-switcher').waitFor();
    await page.keyboard.press('Control+Alt+KeyM');
    await page.getByTestId('switcher-add').click();
    const dialog = page.getByTestId('profile-name-dialog');
    await page.getByTestId('profile-name-ok').click();
    expect(await dialog.getByTestId('profile-name-error').textContent()).toBe('Enter a name.');
    // The first profile's name in other capitals is taken.
    await dialog.getByTestId('profile-name-input').fill(`  ${((await switcherName()) ?? '').toUpperCase()} `);
    await page.getByTestId('profile-name-ok').click();
    expect(await dialog.getByTestId('profile-name-error').textContent()).toContain('already has this name');
    await dialog.getByTestId('profile-name-input').fill(SECOND);
    await page.getByTestId('profile-name-ok').click();

    // The new merchant is the active one and not connected: its connect screen, with the way back.
    await page.getByTestId('connect-screen').waitFor();
    expect(await page.getByTestId('new-merchant-name').textContent()).toBe(SECOND);
    const account = await other.createAccount('500');
    secondUserId = account.userId;
    await connectMerchant(page, { baseUrl: second.baseUrl, userId: account.userId, apiKey: account.apiKey });
    expect(await switcherName()).toBe(SECOND);
    expect(await page.getByTestId('profile-switcher').getAttribute('data-active-profile')).toBe('p2');

    // An order at the second merchant: it stays open there (the sandbox does not move it by itself).
    refs.p2 = await buyOne(await other.products(500));
    await expect.poll(async () => (await other.ledger(secondUserId)).entries.map((entry) => entry.clientOrderRef)).toContain(refs.p2);
    expect(problems).toEqual([]);
  }, 240_000);

  it('switches with Ctrl+Alt+1 and Ctrl+Alt+2: the header and the data follow the active merchant', async () => {
    await closeOverlays(page);
    await page.keyboard.press('Control+Alt+Digit1');
    await expect.poll(() => page.getByTestId('profile-switcher').getAttribute('data-active-profile')).toBe('p1');
    expect(await switcherName()).not.toBe(SECOND);
    await goTo(page, 'catalog');
    await ensureCatalog(page);
    await goTo(page, 'settings');
    await expect.poll(async () => ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim()).not.toBe(secondUserId);
    // An order at the demo merchant too.
    refs.p1 = await buyOne(await demo.products(500));
    await closeOverlays(page);
    await page.keyboard.press('Control+Alt+Digit2');
    await expect.poll(() => page.getByTestId('profile-switcher').getAttribute('data-active-profile')).toBe('p2');
    await goTo(page, 'settings');
    await expect.poll(async () => ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim()).toBe(secondUserId);
    // A profile number beyond the list does nothing.
    await page.keyboard.press('Control+Alt+Digit5');
    await page.waitForTimeout(300);
    expect(await page.getByTestId('profile-switcher').getAttribute('data-active-profile')).toBe('p2');
  }, 180_000);

  it('lists both merchants’ orders with a merchant column, filters by merchant and opens the other merchant’s order', async () => {
    await goTo(page, 'orders');
    const table = page.getByTestId('orders-table');
    const row = (ref: string) => table.locator(`[data-testid="order-row"][data-ref="${ref}"]`);
    await row(refs.p1).waitFor();
    await row(refs.p2).waitFor();
    expect(await row(refs.p1).getByTestId('row-merchant').getAttribute('data-profile-id')).toBe('p1');
    expect(await row(refs.p2).getByTestId('row-merchant').textContent()).toBe(SECOND);
    await screenshot(page, 'profiles-orders-across');

    // The filter: the second merchant's orders only.
    await page.getByTestId('orders-filter-merchant').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: SECOND }).click();
    await row(refs.p2).waitFor();
    expect(await row(refs.p1).count()).toBe(0);
    expect(await table.getByTestId('order-row').count()).toBe(1);
    await page.getByTestId('orders-filter-merchant').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await row(refs.p1).waitFor();

    // The demo merchant's order opens while the second one is active (routed by its ref); each
    // sandbox charged only its own order.
    await row(refs.p1).click();
    expect(((await page.getByTestId('order-detail').getByTestId('detail-client-ref').textContent()) ?? '').trim()).toBe(refs.p1);
    const secondLedger = (await other.ledger(secondUserId)).entries.map((entry) => entry.clientOrderRef);
    expect(secondLedger).toEqual([refs.p2]);
    await closeOverlays(page);
    expect(problems).toEqual([]);
  }, 120_000);

  it('refuses to remove the second merchant while its order is open, saying what is open', async () => {
    await goTo(page, 'settings');
    await page.locator('[data-testid="merchant-row"][data-profile-id="p2"]').getByTestId('merchant-remove').click();
    const dialog = page.getByTestId('profile-remove-dialog');
    await dialog.getByTestId('profile-remove-busy').waitFor();
    expect(await dialog.getByTestId('profile-remove-ok').count()).toBe(0);
    expect(await dialog.getByTestId('profile-remove-busy').textContent()).toMatch(/Orders (not yet accepted by the merchant|not finished)1/);
    await screenshot(page, 'profiles-remove-refused');
    await dialog.getByTestId('profile-remove-cancel').click();
    // Nothing was removed.
    expect(await page.locator('[data-testid="merchant-row"]').count()).toBe(2);
  }, 60_000);

  it('shows each merchant’s own connection state: the second sandbox stops, only its profile goes offline', async () => {
    await goTo(page, 'settings');
    await expect.poll(() => stateOf('p1'), { timeout: MERCHANT_WAIT_MS }).toBe('online');
    await other.faults({ refuseConnections: true });
    // The open order's tracker asks the second merchant again within its polling interval.
    await expect.poll(() => stateOf('p2'), { timeout: 90_000, interval: 1_000 }).toBe('offline');
    expect(await stateOf('p1')).toBe('online');
    await page.keyboard.press('Control+Alt+KeyM');
    const menuState = (id: string) => page.locator(`.ant-dropdown:visible [data-testid="profile-state"][data-profile-id="${id}"]`).getAttribute('data-state');
    expect(await menuState('p2')).toBe('offline');
    expect(await menuState('p1')).toBe('online');
    await page.keyboard.press('Escape');
  }, 150_000);

  it('is photographed in Chinese and English, light and dark; the Chinese shows no English', async () => {
    mkdirSync(DOCS_SCREENS, { recursive: true });
    for (const look of PHOTO_LOOKS) {
      const opened = await openApp(browser, await host.newLaunchUrl(), look.locale, { colorScheme: look.colorScheme, viewport: { width: 1360, height: 860 } });
      const shot = async (name: string): Promise<void> => {
        await opened.page.waitForTimeout(500);
        await opened.page.screenshot({ path: join(DOCS_SCREENS, `${name}-${look.suffix}.png`) });
        if (look.locale === 'zh-CN') expect(await untranslatedOn(opened.page)).toEqual([]);
      };
      try {
        const p = opened.page;
        await p.getByTestId('profile-switcher').waitFor();
        await p.getByTestId('nav-orders').click();
        await p.getByTestId('orders-table').locator('[data-testid="row-merchant"]').first().waitFor();
        await shot('merchants-orders');
        await p.getByTestId('profile-switcher').click();
        await p.getByTestId('switcher-add').waitFor();
        await shot('merchant-switcher');
        await p.keyboard.press('Escape');
        await p.getByTestId('nav-settings').click();
        await p.locator('[data-testid="merchant-row"][data-profile-id="p2"]').getByTestId('merchant-remove').click();
        await p.getByTestId('profile-remove-busy').waitFor();
        await shot('merchant-remove');
        expect(opened.problems).toEqual([]);
      } finally {
        await opened.context.close();
      }
    }
  }, 180_000);

  it('removes the second merchant once its order is finished: its never-exported card needs the typed name and the tick', async () => {
    await other.faults({ refuseConnections: false });
    await other.advanceOrder(refs.p2, 'processing');
    await other.advanceOrder(refs.p2, 'completed');
    // Opening the order asks its merchant again: completed, its card stored.
    await goTo(page, 'orders');
    await page.getByTestId('orders-table').locator(`[data-testid="order-row"][data-ref="${refs.p2}"]`).click();
    await page.getByTestId('order-detail').locator('[data-testid="order-status"][data-status="completed"]').first().waitFor({ timeout: MERCHANT_WAIT_MS });
    await expect.poll(() => page.getByTestId('order-detail').getByTestId('detail-card-masked').count(), { timeout: MERCHANT_WAIT_MS }).toBe(1);

    await goTo(page, 'settings');
    await page.locator('[data-testid="merchant-row"][data-profile-id="p2"]').getByTestId('merchant-remove').click();
    const dialog = page.getByTestId('profile-remove-dialog');
    await dialog.getByTestId('profile-remove-unexported').waitFor();
    expect(await dialog.getByTestId('profile-remove-unexported').textContent()).toContain('1 card in its vault was never exported');
    const ok = dialog.getByTestId('profile-remove-ok');
    await dialog.getByTestId('profile-remove-name').fill('Second');
    expect(await ok.isDisabled()).toBe(true);
    // The name in other capitals and spaces is the name; the tick is still missing.
    await dialog.getByTestId('profile-remove-name').fill(' second SHOP ');
    expect(await ok.isDisabled()).toBe(true);
    await dialog.getByTestId('profile-remove-discard').click();
    expect(await ok.isDisabled()).toBe(false);
    expect(existsSync(join(host.dataDir, 'profiles', 'p2'))).toBe(true);
    await ok.click();
    await expect.poll(() => page.locator('[data-testid="merchant-row"]').count()).toBe(1);
    // Its data went with it (its own folder under the data folder).
    await expect.poll(() => existsSync(join(host.dataDir, 'profiles', 'p2'))).toBe(false);
    // The second one was on screen: the first one is now, and the lists have one merchant again.
    await expect.poll(() => page.getByTestId('profile-switcher').getAttribute('data-active-profile')).toBe('p1');
    await goTo(page, 'orders');
    await page.getByTestId('orders-table').locator(`[data-testid="order-row"][data-ref="${refs.p1}"]`).waitFor();
    expect(await page.getByTestId('orders-table').locator(`[data-testid="order-row"][data-ref="${refs.p2}"]`).count()).toBe(0);
    expect(await page.getByTestId('row-merchant').count()).toBe(0);
    expect(await page.getByTestId('orders-filter-merchant').count()).toBe(0);
    // The merchant kept its own book: exactly the one order charged there.
    expect((await other.ledger(secondUserId)).entries.filter((entry) => entry.kind === 'charge').map((entry) => entry.clientOrderRef)).toEqual([refs.p2]);
    expect(problems).toEqual([]);
  }, 180_000);
});
