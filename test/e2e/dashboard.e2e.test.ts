// Spend at a glance in the real UI (built renderer, Debian Chromium) through the web host and its
// demo merchant. The buyer buys card codes from two products through the order form; on the way sets
// a low-balance line in Settings (junk and negative amounts refused) that the second order crosses,
// which raises the banner and the notification. The dashboard then draws real data: its totals equal
// the merchant's ledger, a product filter and the range change what is drawn, an invalid custom range
// is refused in words, and a chart's data downloads as CSV with the same numbers. The dashboard is
// photographed into docs/screens in Chinese and English, light and dark, and scanned for English in
// the Chinese pictures.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseYuanText } from '../../src/shared/money';
import { buyCardOrder, closeOverlays, connectDemo, ensureCatalog, goTo } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl, type ControlProduct } from './support/sandbox-control';
import { untranslatedOn } from './support/visible-text';
import { startWebHost, type RunningWebHost } from './support/web-host-process';
import { PHOTO_LOOKS } from './support/photo-looks';
import { pickDay } from './support/day-picker';

const DOCS_SCREENS = join(process.cwd(), 'docs', 'screens');

let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let products: ControlProduct[];
let downloadsDir: string;
const bought: number[] = [];

beforeAll(async () => {
  host = await startWebHost();
  downloadsDir = mkdtempSync(join(tmpdir(), 'procure-e2e-dashboard-'));
  products = await sandboxControl(host.controlUrl, host.controlToken).products(500);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `dashboard-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  if (downloadsDir !== undefined) rmSync(downloadsDir, { recursive: true, force: true });
});

/** Counts the low-balance notifications shown from now on (antd's toast closes by itself after a few seconds). */
const WATCH_LOW_BALANCE_TOASTS = `(() => {
  const seen = new WeakSet();
  window.__lowBalanceToasts = 0;
  const count = () => {
    for (const el of document.querySelectorAll('[data-testid="notification-lowBalance"]')) {
      if (!seen.has(el)) { seen.add(el); window.__lowBalanceToasts += 1; }
    }
  };
  new MutationObserver(count).observe(document.body, { childList: true, subtree: true });
})()`;

const fenOfText = (text: string | null): number => parseYuanText((text ?? '').replace(/[¥,\s]/g, '')) ?? Number.NaN;

async function openDashboard(on: Page): Promise<void> {
  await closeOverlays(on);
  await on.getByTestId('nav-dashboard').click();
  await on.getByTestId('dashboard').waitFor();
}

async function demoUserId(): Promise<string> {
  await goTo(page, 'settings');
  return ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim();
}

describe('dashboard', () => {
  it('buys, and a low-balance line set in Settings is crossed by an order: banner and notification', async () => {
    await connectDemo(page);
    await page.getByTestId('connect-continue').click();
    await ensureCatalog(page);
    const first = await buyCardOrder(page, products, 1, []);
    bought.push(first.productRef);
    await closeOverlays(page);

    // The line: junk and negative amounts are refused in words; the balance now (the merchant's) is accepted.
    const userId = await demoUserId();
    const control = sandboxControl(host.controlUrl, host.controlToken);
    const balanceFen = parseYuanText((await control.ledger(userId)).balance) ?? Number.NaN;
    await expect.poll(async () => fenOfText(await page.getByTestId('header-balance').textContent())).toBe(balanceFen);
    const input = page.getByTestId('low-balance-input');
    for (const junk of ['abc', '12.345', '99999999', '-5']) {
      await input.fill(junk);
      await page.getByTestId('low-balance-problem').waitFor();
      expect(await page.getByTestId('low-balance-save').isDisabled()).toBe(true);
    }
    mkdirSync(DOCS_SCREENS, { recursive: true });
    // The order's toasts would cover the card in the picture.
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click();
    await page.waitForTimeout(400);
    await page.getByTestId('settings-low-balance').screenshot({ path: join(DOCS_SCREENS, 'settings-low-balance-zh-light.png') });
    await input.fill((balanceFen / 100).toFixed(2));
    await page.getByTestId('low-balance-save').click();
    await expect.poll(() => page.getByTestId('low-balance-save').isDisabled()).toBe(true);
    // At the line is not below it: nothing yet.
    await page.getByTestId('nav-catalog').click();
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId('low-balance-banner').count()).toBe(0);

    await page.evaluate(WATCH_LOW_BALANCE_TOASTS);
    const second = await buyCardOrder(page, products, 1, bought);
    bought.push(second.productRef);
    await closeOverlays(page);
    const after = parseYuanText((await control.ledger(userId)).balance) ?? Number.NaN;
    expect(after).toBeLessThan(balanceFen);
    await expect.poll(async () => fenOfText(await page.getByTestId('header-balance').textContent())).toBe(after);
    // One notification for the one crossing, even though the balance was read again since; and the banner.
    await expect.poll(() => page.evaluate<number>('window.__lowBalanceToasts')).toBe(1);
    await page.getByTestId('low-balance-banner').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(DOCS_SCREENS, 'low-balance-banner-zh-light.png') });
  }, 300_000);

  it('draws the real orders: totals equal the ledger; filters and the range change the charts', async () => {
    const userId = await demoUserId();
    const ledger = await sandboxControl(host.controlUrl, host.controlToken).ledger(userId);
    const chargedFen = ledger.entries.filter((e) => e.kind === 'charge').reduce((s, e) => s + (parseYuanText(e.amount) ?? Number.NaN), 0);
    const refundedFen = ledger.entries.filter((e) => e.kind === 'refund').reduce((s, e) => s + (parseYuanText(e.amount) ?? Number.NaN), 0);

    await openDashboard(page);
    await expect.poll(async () => (await page.getByTestId('total-orders').textContent())?.includes('2')).toBe(true);
    expect(fenOfText(await page.getByTestId('total-charged').locator('.ant-statistic-content').textContent())).toBe(chargedFen);
    expect(fenOfText(await page.getByTestId('total-net').locator('.ant-statistic-content').textContent())).toBe(chargedFen - refundedFen);
    expect(await page.getByTestId('total-successRate').locator('.ant-statistic-content').textContent()).toBe('100.0%');

    // Every chart is drawn with data: bars for the days, the products and the outcomes, a balance line.
    await expect.poll(() => page.getByTestId('chart-days').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('chart-products').locator('.recharts-bar-rectangle').count()).toBe(2);
    await expect.poll(() => page.getByTestId('chart-outcomes').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('chart-balance').locator('.recharts-line-curve').count()).toBe(1);
    await expect.poll(() => page.getByTestId('chart-delivery').locator('.recharts-line-dot').count()).toBeGreaterThan(0);
    const days30 = await page.getByTestId('chart-days').locator('.recharts-xAxis .recharts-cartesian-axis-tick').count();

    // One product: one bar, one order.
    const name = products.find((p) => p.productRef === bought[0])?.name ?? '';
    await page.getByTestId('filter-product').click();
    await page.locator('.ant-select-item-option').filter({ hasText: name }).first().click();
    await expect.poll(async () => (await page.getByTestId('total-orders').locator('.ant-statistic-content').textContent())?.trim()).toBe('1');
    await expect.poll(() => page.getByTestId('chart-products').locator('.recharts-bar-rectangle').count()).toBe(1);
    await page.getByTestId('filter-product').click();
    await page.locator('.ant-select-item-option').first().click();
    await expect.poll(async () => (await page.getByTestId('total-orders').locator('.ant-statistic-content').textContent())?.trim()).toBe('2');

    // 90 days: the same orders over a longer axis.
    await page.getByTestId('range-90').click();
    await expect.poll(async () => (await page.getByTestId('chart-days').locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()) !== days30).toBe(true);
    await screenshot(page, 'dashboard-90-days');

    // A custom range that ends before it starts is refused in words, and no chart pretends otherwise.
    await page.getByTestId('range-custom').click();
    await pickDay(page.getByTestId('range-from'), '2026-12-31');
    await pickDay(page.getByTestId('range-to'), '2026-01-01');
    await page.getByTestId('range-invalid').waitFor();
    await page.getByTestId('range-30').click();
    await expect.poll(() => page.getByTestId('range-invalid').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it("downloads one chart's data as CSV with the numbers the chart draws", async () => {
    await openDashboard(page);
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('export-products').click();
    await page.getByTestId('export-products-csv').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^procure-desk-spend-products-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const path = join(downloadsDir, file.suggestedFilename());
    await file.saveAs(path);
    const lines = readFileSync(path, 'utf8').replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('商品,订单数,扣款（元）,退款（元）,净支出（元）');
    expect(lines).toHaveLength(3);
    const charged = lines.slice(1).reduce((s, line) => s + (parseYuanText(line.split(',')[2] ?? '') ?? Number.NaN), 0);
    expect(charged).toBe(fenOfText(await page.getByTestId('total-charged').locator('.ant-statistic-content').textContent()));
  }, 60_000);

  it('is photographed in Chinese and English, light and dark; the Chinese shows no English', async () => {
    mkdirSync(DOCS_SCREENS, { recursive: true });
    for (const look of PHOTO_LOOKS) {
      const opened = await openApp(browser, await host.newLaunchUrl(), look.locale, { colorScheme: look.colorScheme, viewport: { width: 1280, height: 1900 } });
      try {
        await openDashboard(opened.page);
        await expect.poll(() => opened.page.getByTestId('chart-balance').locator('.recharts-line-curve').count()).toBe(1);
        await expect.poll(() => opened.page.getByTestId('chart-products').locator('.recharts-bar-rectangle').count()).toBe(2);
        await opened.page.waitForTimeout(500);
        await opened.page.screenshot({ path: join(DOCS_SCREENS, `dashboard-${look.suffix}.png`), fullPage: true });
        if (look.locale === 'zh-CN') expect(await untranslatedOn(opened.page)).toEqual([]);
        expect(opened.problems).toEqual([]);
      } finally {
        await opened.context.close();
      }
    }
  }, 120_000);
});
