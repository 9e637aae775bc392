// Issue 14, lane fixes-ui, in the real UI (built renderer, Debian Chromium, web host, demo merchant):
// "View order" from the product drawer leaves only the order drawer open (one Escape closes it); a
// price range with a price sort shows, and orders by, the price of each product's matching variant
// (checked against the sandbox's own catalog); a minimum above the maximum is named at the filter.
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buyCardOrder, closeOverlays, goTo, MERCHANT_WAIT_MS } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import type { ControlProduct } from './support/sandbox-control';

let session: DemoSession;
let page: Page;

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('fixes-ui', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

const fen = (yuan: string): number => Math.round(Number(yuan) * 100);

/** The cheapest variant price of the product within [min, max] fen, or null when none is. */
function matchedPrice(product: ControlProduct, min: number, max: number): number | null {
  const inRange = product.variants.map((variant) => fen(variant.price)).filter((price) => price >= min && price <= max);
  return inRange.length === 0 ? null : Math.min(...inRange);
}

/** A product whose cheapest variant is below a dearer one: a range on the dearer one tells them apart. */
function productWithSpread(): { product: ControlProduct; low: number; high: number } {
  for (const product of session.products) {
    if (product.availability !== 'available') continue;
    const prices = [...new Set(product.variants.map((variant) => fen(variant.price)))].sort((a, b) => a - b);
    const [low, high] = prices;
    if (low !== undefined && high !== undefined && high >= low + 100) return { product, low, high };
  }
  throw new Error('the demo catalog has no product with variants at different prices');
}

async function typePrice(testId: 'filter-price-min' | 'filter-price-max', fenValue: number | null): Promise<void> {
  const box = page.getByTestId(testId);
  await box.fill(fenValue === null ? '' : (fenValue / 100).toFixed(2));
  await box.press('Tab');
}

/** Picks a sort by its label (zh-CN), as a buyer does. */
async function sortBy(label: '价格从低到高' | '价格从高到低'): Promise<void> {
  await page.getByTestId('catalog-sort').click();
  await page.locator('.ant-select-item-option:visible').filter({ hasText: label }).click();
}

async function visibleRows(): Promise<{ productRef: number; priceFen: number }[]> {
  const rows: Locator = page.getByTestId('catalog-row');
  const out: { productRef: number; priceFen: number }[] = [];
  for (let i = 0; i < Math.min(await rows.count(), 8); i++) {
    const row = rows.nth(i);
    out.push({ productRef: Number(await row.getAttribute('data-product-ref')), priceFen: Number(await row.getByTestId('catalog-row-price').getAttribute('data-price-fen')) });
  }
  return out;
}

describe('drawers close when the buyer goes to another object', () => {
  it('View order from the product drawer leaves only the order drawer open, and one Escape closes it', async () => {
    const before = (await session.control.ledger(session.userId)).entries.filter((entry) => entry.kind === 'charge').length;
    // Opens the product drawer, then the order form over it, pays, and clicks "View order".
    const { ref } = await buyCardOrder(page, session.products, 1, []);
    const charges = (await session.control.ledger(session.userId)).entries.filter((entry) => entry.kind === 'charge');
    expect(charges).toHaveLength(before + 1);
    expect(charges.filter((entry) => entry.clientOrderRef === ref)).toHaveLength(1);

    await expect.poll(() => page.locator('.ant-drawer-mask:visible').count()).toBe(1);
    await expect.poll(() => page.getByTestId('order-detail').isVisible()).toBe(true);
    expect(await page.getByTestId('product-drawer').isVisible()).toBe(false);
    expect(await page.getByTestId('order-modal').isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-drawer-mask:visible, .ant-modal-mask:visible').count()).toBe(0);
  }, 240_000);
});

describe('price filters act on the matching variant', () => {
  it('a range and a price sort show and order by the matching variant\'s price, not the product\'s cheapest', async () => {
    await goTo(page, 'catalog');
    // The whole catalog, details included, so the app's variants are the sandbox's.
    await expect.poll(() => page.getByTestId('sync-now').isEnabled(), { timeout: 240_000, interval: 1_000 }).toBe(true);
    const { product, low, high } = productWithSpread();
    const min = high;
    const max = high + 5_000;

    await typePrice('filter-price-min', min);
    await typePrice('filter-price-max', max);
    await sortBy('价格从低到高');
    await page.getByTestId('catalog-search').fill(product.name);
    const row = page.locator(`[data-testid="catalog-row"][data-product-ref="${product.productRef}"]`);
    await expect.poll(() => row.getByTestId('catalog-row-price').getAttribute('data-price-fen'), { timeout: MERCHANT_WAIT_MS }).toBe(String(high));
    expect(high).not.toBe(low);
    expect(await row.getByTestId('catalog-row-price').textContent()).toContain((high / 100).toFixed(2));

    // Without text: every row shown is the matched price of its product, in ascending order.
    await page.getByTestId('catalog-search').fill('');
    await expect.poll(() => page.getByTestId('catalog-count').getAttribute('data-query')).toBe('');
    await expect.poll(() => page.getByTestId('catalog-count').getAttribute('data-fresh')).toBe('true');
    const byRef = new Map(session.products.map((p) => [p.productRef, p]));
    /** What is wrong with the rows in view (null: each shows its matched price, in the given order). */
    const rowsProblem = async (direction: 1 | -1): Promise<string | null> => {
      const rows = await visibleRows();
      if (rows.length === 0) return 'no rows';
      for (const shown of rows) {
        const source = byRef.get(shown.productRef);
        const expected = source === undefined ? null : matchedPrice(source, min, max);
        if (shown.priceFen !== expected) return `product ${shown.productRef} shows ${shown.priceFen}, its matching variant costs ${String(expected)}`;
      }
      for (let i = 1; i < rows.length; i++) if (((rows[i]?.priceFen ?? 0) - (rows[i - 1]?.priceFen ?? 0)) * direction < 0) return `row ${i} is out of order: ${JSON.stringify(rows)}`;
      return null;
    };
    const checkRows = (direction: 1 | -1): Promise<void> => expect.poll(() => rowsProblem(direction), { timeout: 15_000 }).toBeNull();
    await checkRows(1);
    await screenshot(page, 'fixes-ui-catalog-filters-zh-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'fixes-ui-catalog-filters-zh-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await sortBy('价格从高到低');
    await checkRows(-1);
  }, 300_000);

  it('names a minimum above the maximum at the filter instead of "try fewer filters"', async () => {
    await typePrice('filter-price-min', 10_000);
    await typePrice('filter-price-max', 5_000);
    const message = page.getByTestId('filter-price-error');
    await message.waitFor();
    expect(await message.textContent()).toBe('最低价高于最高价。请调换或修改这两个价格后再查看商品。');
    await page.getByTestId('catalog-price-inverted').waitFor();
    expect(await page.getByTestId('catalog-empty').count()).toBe(0);
    expect(await page.getByTestId('catalog-row').count()).toBe(0);
    await screenshot(page, 'fixes-ui-price-inverted-zh-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'fixes-ui-price-inverted-zh-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByTestId('language-switch').click();
    await expect.poll(() => message.textContent()).toBe('The lowest price is above the highest price. Swap or correct them to see products.');
    await screenshot(page, 'fixes-ui-price-inverted-en-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'fixes-ui-price-inverted-en-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Corrected, the list comes back.
    await typePrice('filter-price-max', 20_000);
    await expect.poll(() => message.count()).toBe(0);
    await typePrice('filter-price-min', 5_000);
    await page.getByTestId('catalog-row').first().waitFor();
    await screenshot(page, 'fixes-ui-catalog-filters-en-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'fixes-ui-catalog-filters-en-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('language-switch').click();
    await closeOverlays(page);
    expect(session.problems).toEqual([]);
  });
});
