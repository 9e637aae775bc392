// One look for time in zh-CN, in the real UI (built renderer, Chromium in Asia/Shanghai, web host with its
// demo merchant): the orders table and the reconciliation's balance times read YYYY-MM-DD HH:mm:ss; the
// reconciliation's date boxes are antd pickers in Chinese (年/月, weeks from 一 to 日) that take a click
// and typed text alike; a two-character button reads "导出", not antd's "导 出". Pictures in light and
// dark, the picker open, go to /tmp/procure-e2e-screens (SCREENSHOT_DIR).
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatStamp } from '../../src/shared/date-time';
import { buyCardOrder, closeOverlays, goTo } from './support/app-steps';
import { openApp, screenshot } from './support/browser';
import { pickDay } from './support/day-picker';
import { startDemoSession, type DemoSession } from './support/demo-session';

let session: DemoSession;
let page: Page;
let orderRef = '';

const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** Today in the browser's zone (openApp sets Asia/Shanghai), as the pickers write it. */
const shanghaiDay = (): string => formatStamp(Date.now(), 'Asia/Shanghai').slice(0, 10);

async function openReconcile(target: Page): Promise<void> {
  await closeOverlays(target);
  await target.getByTestId('nav-reconcile').click();
  await target.getByTestId('reconcile-screen').waitFor();
}

/** The open picker's popup (antd renders it at the end of the body). */
const dropdown = (target: Page) => target.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');

/** The orders table's time of the order: the one cell that looks like a date-time. */
async function orderTimeCell(target: Page, ref: string): Promise<string> {
  const cells = await target.locator(`[data-testid="order-row"][data-ref="${ref}"] td`).allInnerTexts();
  return cells.map((cell) => cell.trim()).find((cell) => /\d{4}/.test(cell) && /:/.test(cell)) ?? '';
}

/** How many lines the text of the element a selector names is laid out on (run in the page: no DOM types here). */
const linesOf = (target: Page, selector: string): Promise<number> =>
  target.evaluate<number>(`(() => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector(${JSON.stringify(selector)}));
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  })()`);

beforeAll(async () => {
  // The host in the browser's zone, as on a buyer's machine (the web host serves loopback only, so the
  // page and core share one clock and zone); from 16:00 UTC a UTC host's "today" is Shanghai's yesterday.
  session = await startDemoSession('zh-CN', { env: { TZ: 'Asia/Shanghai' } });
  page = session.page;
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('date-time-zh', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

describe('time and dates as a Chinese back office writes them', () => {
  it('the orders table writes YYYY-MM-DD HH:mm:ss, in the buyer’s zone', async () => {
    orderRef = (await buyCardOrder(page, session.products, 1, [])).ref;
    await goTo(page, 'orders');
    await page.locator(`[data-testid="order-row"][data-ref="${orderRef}"]`).waitFor({ timeout: 30_000 });
    const shown = await orderTimeCell(page, orderRef);
    expect(shown).toMatch(STAMP);
    // Bought a moment ago: within a few minutes of now on a Shanghai clock.
    const shownMs = Date.parse(`${shown.replace(' ', 'T')}+08:00`);
    expect(Math.abs(Date.now() - shownMs)).toBeLessThan(10 * 60_000);
    // On one line: the date and the time are not split over two.
    expect(await linesOf(page, `[data-testid="order-row"][data-ref="${orderRef}"] td.time-cell`)).toBe(1);
    await page.addStyleTag({ content: '.ant-notification { display: none !important; }' });
    await screenshot(page, 'time-orders-zh-light');
  }, 180_000);

  it('the reconciliation picker speaks Chinese, takes a click and typed text, and the report and balance times follow', async () => {
    await openReconcile(page);
    const today = shanghaiDay();
    const from = page.getByTestId('reconcile-from');
    // Yesterday by default, as the app writes a day.
    expect(await from.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await from.click();
    const popup = dropdown(page);
    await popup.waitFor();
    // The calendar in Chinese: year and month in Chinese words, the week from Monday (一) to Sunday (日).
    expect(await popup.locator('.ant-picker-header-view').first().innerText()).toMatch(/\d{4}年\s*\d{1,2}月/);
    expect((await popup.locator('.ant-picker-content thead th').allInnerTexts()).map((t) => t.trim())).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    await screenshot(page, 'time-reconcile-picker-zh-light');
    // A day not yet begun cannot be picked (core would refuse it): tomorrow's cell is disabled.
    await expect.poll(() => popup.locator(`td[title="${addDays(today, 1)}"]`).first().getAttribute('class')).toContain('ant-picker-cell-disabled');
    // A click on today's cell picks it.
    await popup.locator(`td[title="${today}"]`).first().click();
    await expect.poll(() => from.inputValue()).toBe(today);
    await expect.poll(() => dropdown(page).count()).toBe(0);
    // Typed, as a buyer who knows the day would.
    await pickDay(page.getByTestId('reconcile-to'), today);
    await page.getByTestId('reconcile-run').click();
    await page.getByTestId('reconcile-report').getByText(`${today} 至 ${today}`).first().waitFor({ timeout: 90_000 });
    await page.getByTestId('reconcile-headline').waitFor({ timeout: 90_000 });
    // The balance's reading time, as every time on the screens.
    const end = page.getByTestId('reconcile-balance-end-time');
    if ((await page.getByTestId('reconcile-balance-end').getAttribute('data-known')) === 'true') {
      expect(await end.innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expect(await end.innerText()).not.toMatch(/\d{4}\/\d{1,2}\/\d{1,2}|年/);
    }
    expect(session.problems).toEqual([]);
  }, 180_000);

  it('a two-character button has no space inside (导出, not 导 出)', async () => {
    await openReconcile(page);
    const button = page.getByTestId('reconcile-export');
    expect(await button.innerText()).toBe('导出');
    // antd marks a label it spaced out with this class; none here.
    expect(await button.getAttribute('class')).not.toContain('ant-btn-two-chinese-chars');
  }, 60_000);

  it('looks right in dark: the picker open over the report, and the orders table', async () => {
    const opened = await openApp(session.browser, await session.host.newLaunchUrl(), 'zh-CN', { colorScheme: 'dark' });
    await openReconcile(opened.page);
    await opened.page.getByTestId('reconcile-from').click();
    await dropdown(opened.page).waitFor();
    await screenshot(opened.page, 'time-reconcile-picker-zh-dark');
    await opened.page.keyboard.press('Escape');
    await goTo(opened.page, 'orders');
    await opened.page.locator(`[data-testid="order-row"][data-ref="${orderRef}"]`).waitFor({ timeout: 30_000 });
    expect(await orderTimeCell(opened.page, orderRef)).toMatch(STAMP);
    await screenshot(opened.page, 'time-orders-zh-dark');
    expect(opened.problems).toEqual([]);
    await opened.context.close();
  }, 90_000);
});
