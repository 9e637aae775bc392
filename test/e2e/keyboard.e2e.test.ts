// Keyboard and screen readers (issue 26, point 5), in Chromium through the web host and its demo
// merchant: a product row and an order row are reached with Tab and opened with Enter and with Space,
// are announced with their role and a name, and show a 2px ring in the theme's primary colour
// (photographed into docs/screens, zh-CN light and dark); the order dialog's Tab order follows its
// reading order, and the order itself is reviewed and paid from the keyboard, charged once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeOverlays, fillPurchaseFields, goTo, MERCHANT_WAIT_MS, pick, search, waitForDetailStatus } from './support/app-steps';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct, type ControlVariant } from './support/sandbox-control';
import { focusStop, hasFocus, hasVisibleFocus, ringOf, type FocusStop } from './support/focus-reading';
import { untranslatedOn } from './support/visible-text';

const DOCS = join(process.cwd(), 'docs', 'screens');
const MODAL = '[data-testid="order-modal"]';
let session: DemoSession;
let page: Page;
let topup: { product: ControlProduct; variant: ControlVariant };
let orderRef = '';

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
  // A top-up with details to type and a choice of quantity: the dialog has fields, steppers and buttons.
  topup = pick(
    session.products,
    (p, v) => p.productType !== 'card' && v.supply === 'succeed' && v.entryMode === 'single' && v.unitRule.min < v.unitRule.max && (v.remainingUnits === null || v.remainingUnits >= v.unitRule.min) && purchasable(p, v),
  );
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('keyboard', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

/** Presses Tab until the element `selector` finds has the focus, at most `limit` times; fails if it never does. */
async function tabTo(selector: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await hasFocus(page, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function expectRing(selector: string): Promise<void> {
  const ring = await ringOf(page, selector);
  expect(ring.width).toBe('2px');
  expect(ring.style).toBe('solid');
  expect(ring.color).toBe(ring.primary);
  // The theme's primary, not the browser's default ring or nothing.
  expect(ring.primary).toMatch(/^rgb\(/);
}

/** zh-CN light and dark pictures of the focused row, scanned for English, into docs/screens. */
async function photographFocus(name: string, selector: string): Promise<void> {
  mkdirSync(DOCS, { recursive: true });
  for (const dark of [false, true]) {
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
    await page.waitForTimeout(500);
    // The theme changed under the focus: still the same element, still ringed in the new primary.
    expect(await hasVisibleFocus(page, selector)).toBe(true);
    await expectRing(selector);
    await page.screenshot({ path: join(DOCS, `${name}-zh-${dark ? 'dark' : 'light'}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await untranslatedOn(page)).toEqual([]);
}

describe('keyboard', () => {
  it('opens a product from the catalog with Tab and Enter, and again with Space; the row is a named button with a visible ring', async () => {
    const { product } = topup;
    await goTo(page, 'catalog');
    await search(page, product.name);
    const rowSelector = `[data-testid="catalog-row"][data-product-ref="${product.productRef}"]`;
    const row = page.locator(rowSelector);
    await row.waitFor();
    await expect.poll(() => page.getByTestId('catalog-count').getAttribute('data-fresh')).toBe('true');
    // From the search box, only keys.
    await page.getByTestId('catalog-search').focus();
    await tabTo(rowSelector);
    // Announced as a button that opens a dialog, named by the product and its price.
    expect(await row.getAttribute('role')).toBe('button');
    expect(await row.getAttribute('aria-haspopup')).toBe('dialog');
    const name = (await row.getAttribute('aria-label')) ?? '';
    expect(name.startsWith(`查看商品：${product.name}，`)).toBe(true);
    expect(await page.getByRole('button', { name, exact: true }).getAttribute('data-product-ref')).toBe(String(product.productRef));
    await expectRing(rowSelector);
    await photographFocus('keyboard-catalog-row', rowSelector);

    // Other keys open nothing.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('a');
    await page.waitForTimeout(400);
    expect(await page.locator('.ant-drawer-mask:visible').count()).toBe(0);

    await page.keyboard.press('Enter');
    const drawer = page.getByTestId('product-drawer');
    await drawer.getByTestId('variant-row').first().waitFor();
    expect(await page.locator('.ant-drawer-title').first().textContent()).toBe(product.name);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-drawer-mask:visible').count()).toBe(0);
    // Closed, the focus is back on the row it was opened from; Space opens it as well.
    await expect.poll(() => hasFocus(page, rowSelector)).toBe(true);
    await page.keyboard.press(' ');
    await drawer.getByTestId('variant-row').first().waitFor();
    expect(await page.locator('.ant-drawer-title').first().textContent()).toBe(product.name);
  });

  it('chooses a variant with the keyboard and opens its order dialog, whose Tab order follows its reading order', async () => {
    const { variant } = topup;
    const drawer = page.getByTestId('product-drawer');
    const variantSelector = `[data-testid="product-drawer"] [data-testid="variant-row"][data-variant-ref="${variant.variantRef}"]`;
    const variantRow = page.locator(variantSelector);
    await drawer.locator('.ant-drawer-close').focus();
    await tabTo(variantSelector);
    expect(await variantRow.getAttribute('aria-label')).toBe(`查看价格走势：${variant.title}`);
    await expectRing(variantSelector);
    await page.keyboard.press(' ');
    await expect.poll(() => variantRow.getAttribute('aria-current')).toBe('true');
    // The buy button inside the row: Enter there opens the order dialog, not the row.
    await tabTo(`${variantSelector} [data-testid="variant-buy"]`);
    await page.keyboard.press('Enter');
    const modal = page.getByTestId('order-modal');
    await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
    await modal.getByTestId('order-submit').waitFor();
    await page.waitForTimeout(500);

    // One full turn of Tab from the dialog's start: every stop inside the dialog, in reading order.
    const stops: FocusStop[] = [];
    let outside = 0;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const at = await focusStop(page, MODAL);
      if (at.outsidePage) {
        outside += 1;
        continue;
      }
      // Never the drawer or the page behind the dialog.
      expect(at.inside, `Tab left the dialog at ${at.id} after ${stops.map((stop) => stop.id).join(' → ')}`).toBe(true);
      if (stops.length > 0 && stops[0]?.id === at.id && stops[0].top === at.top) break;
      stops.push(at);
    }
    expect(outside).toBeLessThanOrEqual(3);
    const ids = stops.map((stop) => stop.id);
    // Starting after the dialog's close button (its header), the stops run top to bottom, left to right.
    const start = ids.findIndex((id) => id === 'order-units-less');
    expect(start, ids.join(' → ')).toBeGreaterThanOrEqual(0);
    const turn = [...stops.slice(start), ...stops.slice(0, start)];
    for (let i = 1; i < turn.length; i++) {
      const before = turn[i - 1];
      const now = turn[i];
      if (before === undefined || now === undefined) continue;
      const sameLine = Math.abs(now.top - before.top) <= 8;
      const order = turn.map((stop) => `${stop.id}@${stop.top},${stop.left}`).join(' → ');
      if (sameLine) expect(now.left, order).toBeGreaterThan(before.left);
      // The close button sits at the dialog's top right, where a new turn starts.
      else if (i < turn.length - 1) expect(now.top, order).toBeGreaterThan(before.top);
    }
    const turnIds = turn.map((stop) => stop.id);
    const units = turnIds.indexOf('order-units');
    const firstField = turnIds.findIndex((id) => id.startsWith('order-field-'));
    const review = turnIds.indexOf('order-submit');
    expect(turnIds.slice(0, 3)).toEqual(['order-units-less', 'order-units', 'order-units-more']);
    expect(units).toBeLessThan(firstField);
    // The buttons last, in the order they are drawn: Cancel, then Review; then the dialog's close button.
    expect(review).toBe(turnIds.length - 2);
    expect(turn[review - 1]?.top).toBe(turn[review]?.top);
    expect(turn[review - 1]?.left).toBeLessThan(turn[review]?.left ?? 0);
    expect(turnIds[turnIds.length - 1], turnIds.join(' → ')).toBe('关闭');
    expect(turnIds[review - 1]).toMatch(/^button:取\s*消$/);
    // Shift+Tab walks the same stops backwards.
    await modal.getByTestId('order-submit').focus();
    await page.keyboard.press('Shift+Tab');
    expect((await focusStop(page, MODAL)).left).toBe(turn[review - 1]?.left);
  });

  it('reviews and pays the order from the keyboard: one order, charged once', async () => {
    const modal = page.getByTestId('order-modal');
    await fillPurchaseFields(page, modal);
    await modal.getByTestId('order-submit').focus();
    await page.keyboard.press('Enter');
    await modal.getByTestId('order-confirmation').waitFor();
    await tabTo(`${MODAL} [data-testid="order-place"]`);
    await page.keyboard.press('Enter');
    await modal.getByTestId('order-outcome').waitFor({ timeout: MERCHANT_WAIT_MS });
    await tabTo(`${MODAL} [data-testid="order-view"]`);
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('order-detail');
    orderRef = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
    expect(orderRef).not.toBe('');
    await waitForDetailStatus(page, ['completed']);
    const ledger = await session.control.ledger(session.userId);
    expect(ledger.entries.filter((entry) => entry.kind === 'charge' && entry.clientOrderRef === orderRef)).toHaveLength(1);
    await closeOverlays(page);
  });

  it('opens the order from the orders list with Tab and Enter, and with Space; the row keeps its row role and has a name', async () => {
    await goTo(page, 'orders');
    const rowSelector = `[data-testid="order-row"][data-ref="${orderRef}"]`;
    const row = page.locator(rowSelector);
    await row.waitFor();
    await page.getByTestId('orders-refresh').focus();
    await tabTo(rowSelector);
    // A table row stays a row (the table stays a table), named by the product and when it was ordered.
    expect(await row.getAttribute('role')).toBeNull();
    const name = (await row.getAttribute('aria-label')) ?? '';
    expect(name.startsWith(`查看订单：${topup.product.name}，`)).toBe(true);
    expect(await page.getByRole('row', { name, exact: true }).getAttribute('data-ref')).toBe(orderRef);
    await expectRing(rowSelector);
    await photographFocus('keyboard-order-row', rowSelector);

    await page.keyboard.press('Enter');
    const detail = page.getByTestId('order-detail');
    await expect.poll(async () => ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim()).toBe(orderRef);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-drawer-mask:visible').count()).toBe(0);
    // Closed, the focus is back on the order's row; Space opens it as well.
    await expect.poll(() => hasFocus(page, rowSelector)).toBe(true);
    await page.keyboard.press(' ');
    await expect.poll(async () => ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim()).toBe(orderRef);
    await closeOverlays(page);
    expect(session.problems).toEqual([]);
  });
});
