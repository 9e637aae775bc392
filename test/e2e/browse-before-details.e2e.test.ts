// Browsing before the details arrive (contract §11), in the real UI (built renderer, Debian Chromium,
// web host with its demo merchant, every merchant answer slowed so the first sync's details step
// lasts longer than the test): once the list pages are stored the catalog lists and searches products whose detail is not
// there yet, their rows say "prices from the list; details loading" with the list's price and variant
// count, and opening one shows a loading state (never an empty variant table) and then its variants,
// fetched as the buyer's request ahead of the sync. Screenshots of the list and of the drawer loading
// and loaded, zh-CN and English, light and dark. Offline, the drawer shows the list's data, says the
// details load when the merchant is reachable, and loads them by itself once it is.
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openApp, screenshot } from './support/browser';
import { closeOverlays, connectDemo, search } from './support/app-steps';
import { sandboxControl, type ControlProduct, type SandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

/** Every merchant answer takes this long while connecting: inside the connect test's 5 s. */
const LATENCY_MS = 4000;
/**
 * Then every answer takes this long (under the request timeout of 15 s), so the details step of 60
 * products (8 in flight) lasts about 90 s: longer than this file's steps on a loaded machine. At 4 s
 * it lasted 30 s, and a slow run found every row stored before it looked for list-only ones (and no
 * request left to notice the merchant going away in the offline test).
 */
const SLOW_LATENCY_MS = 12_000;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let control: SandboxControl;
let products: ControlProduct[];

beforeAll(async () => {
  host = await startWebHost();
  control = sandboxControl(host.controlUrl, host.controlToken);
  products = await control.products();
  await control.faults({ latencyMs: LATENCY_MS });
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `browse-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const text = async (locator: Locator): Promise<string> => ((await locator.textContent()) ?? '').trim();
const rowOf = (productRef: number): Locator => page.locator(`[data-testid="catalog-row"][data-product-ref="${productRef}"]`);
const fen = (yuan: string): number => Math.round(Number(yuan) * 100);
const listPrice = (product: ControlProduct): number => Math.min(...product.variants.map((v) => fen(v.price)));

async function bothSchemes(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * A product the sync has not reached yet: details are fetched in productRef order, so the highest
 * refs come last. `nth` 0 is the very last.
 */
function lateProduct(nth: number): ControlProduct {
  const late = [...products].filter((p) => p.availability === 'available').sort((a, b) => b.productRef - a.productRef)[nth];
  if (late === undefined) throw new Error('no product');
  return late;
}

/** Searches the product by name, checks its row is list-only, opens it: loading, then its variants. */
async function openListOnly(product: ControlProduct, note: string, shots: string): Promise<void> {
  await search(page, product.name);
  const row = rowOf(product.productRef);
  await row.waitFor();
  expect(await row.getAttribute('data-detail-state')).toBe('listOnly');
  expect(await text(row.getByTestId('catalog-row-list-note'))).toBe(`· ${note}`);
  expect(Number(await row.getByTestId('catalog-row-price').getAttribute('data-price-fen'))).toBe(listPrice(product));
  await row.click();
  const drawer = page.getByTestId('product-drawer');
  // The cached list data at once, the detail loading: a loading state, no variant table.
  await drawer.getByTestId('product-detail-loading').waitFor();
  expect(await drawer.locator('.ant-table').count()).toBe(0);
  expect(await text(page.locator('.ant-drawer-title').first())).toBe(product.name);
  await bothSchemes(`${shots}-drawer-loading`);
  await drawer.getByTestId('variant-row').first().waitFor({ timeout: 60_000 });
  expect(await drawer.getByTestId('variant-row').count()).toBe(product.variants.length);
  expect(await drawer.getByTestId('product-detail-loading').count()).toBe(0);
  await bothSchemes(`${shots}-drawer-loaded`);
  await closeOverlays(page);
  // The row follows: its detail is stored now.
  await expect.poll(() => rowOf(product.productRef).getAttribute('data-detail-state'), { timeout: 10_000 }).toBe('stored');
}

describe('browsing before the details arrive', () => {
  it('lists, searches and opens products known only from the list, in Chinese and English', async () => {
    await page.getByTestId('connect-screen').waitFor();
    await connectDemo(page);
    await control.faults({ latencyMs: SLOW_LATENCY_MS });
    await page.getByTestId('connect-continue').click();
    await page.getByTestId('catalog-screen').waitFor();
    // The list pages are stored: rows appear while the details step runs.
    const listOnlyRows = page.locator('[data-testid="catalog-row"][data-detail-state="listOnly"]');
    await listOnlyRows.first().waitFor({ timeout: 60_000 });
    const first = listOnlyRows.first();
    expect(await text(first.getByTestId('catalog-row-list-note'))).toBe('· 价格来自列表；详情加载中');
    const ref = Number(await first.getAttribute('data-product-ref'));
    const listed = products.find((p) => p.productRef === ref);
    if (listed === undefined) throw new Error(`row ${ref} is not a sandbox product`);
    expect(await text(first)).toContain(`${listed.variants.length} 个规格`);
    if (listed.availability === 'available') expect(await text(first.getByTestId('catalog-row-stock-unknown'))).toBe('库存待确认');
    await bothSchemes('browse-list-zh');

    // "In stock only" keeps the available list-only products (their stock is not known yet).
    await page.getByTestId('filter-in-stock').click();
    await listOnlyRows.first().waitFor();
    await page.getByTestId('filter-in-stock').click();

    await openListOnly(lateProduct(0), '价格来自列表；详情加载中', 'browse-zh');

    await page.getByTestId('language-switch').click();
    await search(page, '');
    await listOnlyRows.first().waitFor();
    // The sync has stored the first details by now: bring rows still known only from the list into view.
    await listOnlyRows.first().scrollIntoViewIfNeeded();
    expect(await text(listOnlyRows.first().getByTestId('catalog-row-list-note'))).toBe('· prices from the list; details loading');
    expect(await text(page.getByTestId('catalog-row-stock-unknown').first())).toBe('Stock not known yet');
    await bothSchemes('browse-list-en');
    await openListOnly(lateProduct(1), 'prices from the list; details loading', 'browse-en');
    await page.getByTestId('language-switch').click();
    expect(problems).toEqual([]);
  }, 240_000);

  it('offline: the drawer shows the list data and says the details load when the merchant is reachable; then they do', async () => {
    await control.faults({ refuseConnections: true });
    await page.locator('[data-testid="online-indicator"][data-state="offline"]').waitFor({ timeout: 60_000 });
    const product = lateProduct(2);
    await search(page, product.name);
    const row = rowOf(product.productRef);
    await row.waitFor();
    expect(await row.getAttribute('data-detail-state')).toBe('listOnly');
    await row.click();
    const drawer = page.getByTestId('product-drawer');
    const unreachable = drawer.getByTestId('product-detail-unreachable');
    await unreachable.waitFor();
    expect(await text(unreachable)).toContain('连接恢复后将自动加载详情');
    expect(await text(drawer.getByTestId('product-list-summary'))).toContain(`${product.variants.length} 个规格`);
    expect(await drawer.locator('.ant-table').count()).toBe(0);
    await bothSchemes('browse-zh-drawer-unreachable');
    // The merchant is back: the probe sees it, and the open drawer loads the detail by itself.
    await control.faults({ refuseConnections: false });
    await drawer.getByTestId('variant-row').first().waitFor({ timeout: 120_000 });
    expect(await drawer.getByTestId('variant-row').count()).toBe(product.variants.length);
    expect(await unreachable.count()).toBe(0);
    await closeOverlays(page);
    expect(problems).toEqual([]);
  }, 240_000);
});
