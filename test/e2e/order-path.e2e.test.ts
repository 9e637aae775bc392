// The screens where a buyer decides to spend money keep the core's promise —
// what the buyer sees is what the buyer pays. Real UI (built renderer, Debian Chromium) through the web
// host and its demo merchant; every order that spends money is checked against the sandbox's ledger,
// not only against the screen. One host and one page for the file, like a buyer's session.
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import {
  closeOverlays,
  goTo,
  MERCHANT_WAIT_MS,
  openOrderForm,
  openProduct,
  pick,
  variantRow,
  waitForDetailStatus,
} from './support/app-steps';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct, type ControlVariant, type Ledger, type SandboxControl } from './support/sandbox-control';

let session: DemoSession;
let page: Page;
let problems: string[];
let control: SandboxControl;
let products: ControlProduct[];
let userId = '';
/** Variants a test has ordered or changed: later picks leave them alone. */
const used = new Set<string>();
/**
 * Every order the UI placed in this file → the total the buyer confirmed for it (the last
 * confirmation, after a re-confirmation at a new price) or 0 when the buyer ended up paying nothing
 * (withdrawn, refused). The last test compares the whole book with the sandbox's ledger.
 */
const confirmedTotals = new Map<string, number>();

const yuanToFen = (yuan: string): number => Math.round(Number(yuan) * 100);
/** As the screens write yuan: 1234.5 → "1,234.50". */
const fenText = (fen: number): string => (fen / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const key = (product: ControlProduct, variant: ControlVariant): string => `${product.productRef}/${variant.variantRef}`;

function pickFresh(like: (product: ControlProduct, variant: ControlVariant) => boolean): { product: ControlProduct; variant: ControlVariant } {
  const chosen = pick(products, (p, v) => !used.has(key(p, v)) && like(p, v));
  used.add(key(chosen.product, chosen.variant));
  return chosen;
}

async function ledger(): Promise<Ledger> {
  return control.ledger(userId);
}

function chargesOf(book: Ledger, ref: string): number[] {
  return book.entries.filter((entry) => entry.kind === 'charge' && entry.clientOrderRef === ref).map((entry) => yuanToFen(entry.amount));
}

/** Selects everything in the quantity box and types, as a person does. */
async function typeUnits(modal: Locator, text: string): Promise<void> {
  const box = modal.getByTestId('order-units');
  await box.click();
  await box.press('ControlOrMeta+a');
  if (text === '') await box.press('Backspace');
  else await box.pressSequentially(text);
}

async function unitsError(modal: Locator): Promise<string> {
  return (await modal.getByTestId('order-units-error').textContent()) ?? '';
}

const moneyIn = async (locator: Locator): Promise<number> => yuanToFen(((await locator.textContent()) ?? '').replace(/[^\d.]/g, ''));

/** Reviews the form, reads the confirmed total off the confirmation, and pays once. */
async function reviewAndPay(modal: Locator): Promise<number> {
  await modal.getByTestId('order-submit').click();
  const confirmation = modal.getByTestId('order-confirmation');
  await confirmation.waitFor();
  const total = await moneyIn(confirmation.getByTestId('confirm-total'));
  await confirmation.getByTestId('order-place').click();
  await modal.getByTestId('order-outcome').waitFor();
  return total;
}

/** The ref of the order the dialog follows, read from the detail it opens. */
async function viewFollowedOrder(modal: Locator): Promise<string> {
  await modal.getByTestId('order-view').click();
  const ref = ((await page.getByTestId('order-detail').getByTestId('detail-client-ref').textContent()) ?? '').trim();
  expect(ref).toMatch(/^[A-Za-z0-9_-]+$/);
  return ref;
}

/** Settings → order updates → this computer only: the demo merchant's webhooks reach the app. */
async function enableLocalWebhooks(): Promise<void> {
  await goTo(page, 'settings');
  const events = page.getByTestId('settings-events');
  await events.getByTestId('settings-tunnel').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '仅本机' }).click();
  await events.getByTestId('settings-events-save').click();
  await expect.poll(() => page.getByTestId('events-health').textContent(), { timeout: 30_000, interval: 500 }).toContain('消息推送（Webhook）工作正常');
}

beforeAll(async () => {
  session = await startDemoSession();
  ({ page, problems, control, products, userId } = session);
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('order-path', context.task.name);
  await control.faults({ errorRate: 0, dropRate: 0, latencyMs: 0 });
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

describe('the order dialog: one model, a confirmation, exactly what was confirmed is charged', () => {
  it('refuses what the quantity box cannot mean, shows the total of what it sends, and charges it once on a double click', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'succeed' && v.unitRule.min === 1 && v.unitRule.max === 50 && v.inventoryType === 'unlimited' && purchasable(p, v));
    const priceFen = yuanToFen(variant.price);
    const modal = await openOrderForm(page, product, variant);
    const total = modal.getByTestId('order-total');
    const submit = modal.getByTestId('order-submit');
    const confirmation = modal.getByTestId('order-confirmation');

    // Cleared: an error, no total, nothing to confirm.
    await typeUnits(modal, '');
    await expect.poll(() => unitsError(modal)).toContain('请填写数量');
    expect(await total.textContent()).not.toMatch(/\d/);
    await submit.click();
    expect(await confirmation.count()).toBe(0);
    // 0, above the maximum (the bug: "051" shown, 5 units totalled, 50 sent), and text.
    for (const [typed, words] of [['0', '1 至 50'], ['51', '1 至 50'], ['abc', '整数'], ['2.5', '整数'], ['-3', '整数']] as const) {
      await typeUnits(modal, typed);
      await expect.poll(() => modal.getByTestId('order-units').inputValue()).toBe(typed);
      await expect.poll(() => unitsError(modal)).toContain(words);
      expect(await total.textContent()).not.toMatch(/\d/);
      await submit.click();
      expect(await confirmation.count()).toBe(0);
    }
    await screenshot(page, 'order-units-too-many');
    // Select all and retype: exactly what is in the box is totalled.
    await typeUnits(modal, '3');
    await expect.poll(() => total.textContent()).toContain(fenText(3 * priceFen));
    expect(await modal.getByTestId('order-units-error').count()).toBe(0);
    // The stepper moves by the rule from what the box says.
    await modal.getByTestId('order-units-more').click();
    await expect.poll(() => modal.getByTestId('order-units').inputValue()).toBe('4');
    await expect.poll(() => total.textContent()).toContain(fenText(4 * priceFen));
    // A full-width digit from a Chinese IME reads as the digit it is.
    await typeUnits(modal, '２');
    await modal.getByTestId('order-units').blur();
    await expect.poll(() => modal.getByTestId('order-units').inputValue()).toBe('2');
    await expect.poll(() => total.textContent()).toContain(fenText(2 * priceFen));

    await submit.click();
    await confirmation.waitFor();
    expect(await confirmation.getByTestId('confirm-units').textContent()).toBe('2');
    expect(await confirmation.getByTestId('confirm-unit-price').textContent()).toContain(fenText(priceFen));
    expect(await confirmation.getByTestId('confirm-total').textContent()).toContain(fenText(2 * priceFen));
    const balanceBefore = yuanToFen((await ledger()).balance);
    expect(await confirmation.getByTestId('confirm-balance-after').textContent()).toContain(fenText(balanceBefore - 2 * priceFen));
    await screenshot(page, 'order-confirmation-card');
    const chargesBefore = (await ledger()).entries.filter((entry) => entry.kind === 'charge').length;
    // A double click (and Enter on top) places one order.
    await confirmation.getByTestId('order-place').dblclick();
    await page.keyboard.press('Enter').catch(() => undefined);
    await modal.getByTestId('order-outcome').waitFor();
    // The dialog follows the order by itself: from recorded to placed/completed without a click.
    await modal.locator('[data-testid="order-outcome"]:is([data-state="pending"], [data-state="processing"], [data-state="completed"])').waitFor({ timeout: MERCHANT_WAIT_MS });
    await screenshot(page, 'order-dialog-following');
    const ref = await viewFollowedOrder(modal);
    confirmedTotals.set(ref, 2 * priceFen);
    const book = await ledger();
    expect(book.entries.filter((entry) => entry.kind === 'charge')).toHaveLength(chargesBefore + 1);
    expect(chargesOf(book, ref)).toEqual([2 * priceFen]);
    expect(await page.getByTestId('order-detail').getByTestId('detail-units').textContent()).toBe('2');
    // Named by the merchant's order number; our ref is only the support row.
    await expect.poll(() => page.getByTestId('order-detail').getByTestId('detail-platform-ref').textContent()).toMatch(/^\d{6,}$/);
    const title = (await page.locator('.ant-drawer-title').last().textContent()) ?? '';
    expect(title).toContain((await page.getByTestId('order-detail').getByTestId('detail-platform-ref').textContent()) ?? 'x');
    expect(title).not.toContain(ref);
    expect(problems).toEqual([]);
  });

  it('a failed order: the dialog follows it to failed and refunded, and the timeline shows only states it passed through', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'fail' && v.unitRule.min === 1 && purchasable(p, v));
    const priceFen = yuanToFen(variant.price);
    const modal = await openOrderForm(page, product, variant);
    const confirmed = await reviewAndPay(modal);
    expect(confirmed).toBe(priceFen);
    // No click needed: the dialog moves from "recorded" to "failed" as the merchant answers.
    await modal.locator('[data-testid="order-outcome"][data-state="failed"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    await screenshot(page, 'order-dialog-failed');
    const ref = await viewFollowedOrder(modal);
    confirmedTotals.set(ref, confirmed);
    await waitForDetailStatus(page, ['failed']);
    const timeline = page.getByTestId('order-detail').getByTestId('order-timeline');
    const entries = await timeline.getByTestId('timeline-entry').allTextContents();
    expect(entries[0]).toBe('订单已记录');
    expect(entries.at(-1)).toBe('失败');
    expect(entries).not.toContain('已完成');
    expect(entries.join(' ')).not.toContain('最后更新');
    // Charged once, refunded in full.
    const book = await ledger();
    expect(chargesOf(book, ref)).toEqual([priceFen]);
    expect(book.entries.filter((entry) => entry.kind === 'refund' && entry.clientOrderRef === ref).map((entry) => yuanToFen(entry.amount))).toEqual([priceFen]);
    expect(await page.getByTestId('order-detail').getByTestId('detail-total').textContent()).toContain(fenText(priceFen));
    await screenshot(page, 'order-detail-failed-timeline');
  });
});

describe('actions from a fresh status', () => {
  it('opening an order asks the merchant first, so cancel is not offered from a stale status; a wrong code is said on the order', async () => {
    const { product, variant } = pickFresh(
      (p, v) => p.productType === 'topup' && v.supply === 'needsVerification' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v),
    );
    const modal = await openOrderForm(page, product, variant);
    for (const field of await modal.locator('input[data-testid^="order-field-"]').all()) {
      const type = await field.getAttribute('type');
      await field.fill(type === 'tel' ? '13800138000' : type === 'email' ? 'buyer@163.com' : '123456789');
    }
    const confirmed = await reviewAndPay(modal);
    await modal.locator('[data-testid="order-outcome"][data-state="verifying"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    const ref = await viewFollowedOrder(modal);
    confirmedTotals.set(ref, confirmed);
    await waitForDetailStatus(page, ['verifying']);
    // A wrong code (000000 in the sandbox) sends the order back to verifying: the order says why.
    await page.getByTestId('action-verification-code').click();
    await page.getByTestId('action-code-input').fill('000000');
    await page.getByTestId('action-code-submit').click();
    await page.getByTestId('order-code-rejected').waitFor({ timeout: MERCHANT_WAIT_MS });
    await screenshot(page, 'order-code-rejected');
    await page.getByTestId('action-cancel').waitFor();
    await closeOverlays(page);
    // The merchant moves on (a right code given elsewhere); the app has not polled yet.
    await control.advanceOrder(ref, 'processing');
    await goTo(page, 'orders');
    await page.locator(`[data-testid="order-row"][data-ref="${ref}"]`).click();
    // Opening it asks the merchant: the status is the new one, and cancel is not offered.
    await waitForDetailStatus(page, ['processing', 'completed'], 5_000);
    expect(await page.getByTestId('order-detail').getByTestId('action-cancel').count()).toBe(0);
    expect(await page.getByTestId('order-detail').getByTestId('order-code-rejected').count()).toBe(0);
  });
});

describe('the price guard, refusals and withdraw: nothing is charged that was not confirmed', () => {
  it('a price raised between opening the dialog and confirming parks the order; the buyer sees both prices and pays the new one only on request', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && v.unitRule.max >= 2 && v.inventoryType === 'unlimited' && purchasable(p, v));
    const oldFen = yuanToFen(variant.price);
    const newFen = oldFen + 150;
    const modal = await openOrderForm(page, product, variant);
    await typeUnits(modal, '2');
    await expect.poll(() => modal.getByTestId('order-total').textContent()).toContain(fenText(2 * oldFen));
    // The merchant raises the price while the buyer looks at the form (the cache does not know yet).
    await control.changeProduct(product.productRef, { variantRef: variant.variantRef, price: (newFen / 100).toFixed(2) });
    const confirmed = await reviewAndPay(modal);
    expect(confirmed).toBe(2 * oldFen);
    const panel = modal.getByTestId('price-changed');
    await panel.waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await panel.getByTestId('price-changed-old').textContent()).toContain(fenText(oldFen));
    expect(await panel.getByTestId('price-changed-new').textContent()).toContain(fenText(newFen));
    expect(await panel.getByTestId('price-changed-new-total').textContent()).toContain(fenText(2 * newFen));
    await screenshot(page, 'order-price-changed');
    const ref = await viewFollowedOrder(modal);
    // Parked: nothing reached the merchant's ledger.
    expect(chargesOf(await ledger(), ref)).toEqual([]);
    await closeOverlays(page);
    // The detail offers the same choice; the buyer pays the new price.
    await goTo(page, 'orders');
    await page.locator(`[data-testid="queue-row"][data-ref="${ref}"]`).click();
    const detail = page.getByTestId('order-detail');
    await detail.getByTestId('price-changed').waitFor();
    await screenshot(page, 'order-detail-price-changed');
    await detail.getByTestId('price-changed-accept').click();
    await waitForDetailStatus(page, ['pending', 'processing', 'completed']);
    confirmedTotals.set(ref, 2 * newFen);
    await expect.poll(async () => chargesOf(await ledger(), ref)).toEqual([2 * newFen]);
    expect(await detail.getByTestId('detail-total').textContent()).toContain(fenText(2 * newFen));
  });

  it('stock gone between confirming and sending parks the order as unavailable and charges nothing', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'succeed' && v.inventoryType === 'tracked' && (v.remainingUnits ?? 0) >= 2 && purchasable(p, v));
    const modal = await openOrderForm(page, product, variant);
    await control.changeProduct(product.productRef, { variantRef: variant.variantRef, remainingUnits: 0 });
    await reviewAndPay(modal);
    const parked = modal.getByTestId('order-unavailable');
    await parked.waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await parked.getAttribute('data-reason')).toBe('outOfStock');
    const ref = await viewFollowedOrder(modal);
    confirmedTotals.set(ref, 0);
    const detail = page.getByTestId('order-detail');
    await detail.getByTestId('action-withdraw').click();
    await page.getByTestId('action-withdraw-confirm').click();
    await expect.poll(() => detail.getByTestId('withdraw-outcome').getAttribute('data-outcome')).toBe('withdrawn');
    await waitForDetailStatus(page, ['withdrawn'], 10_000);
    expect(chargesOf(await ledger(), ref)).toEqual([]);
  });

  it('a refused order (balance too small) still shows the unit price and total the buyer confirmed', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'succeed' && v.unitRule.min === 1 && v.inventoryType === 'unlimited' && purchasable(p, v));
    const priceFen = yuanToFen(variant.price);
    const before = (await ledger()).balance;
    await control.setBalance(userId, '0.01');
    try {
      const modal = await openOrderForm(page, product, variant);
      await reviewAndPay(modal);
      await modal.locator('[data-testid="order-outcome"][data-intent-status="rejected"]').waitFor({ timeout: MERCHANT_WAIT_MS });
      const ref = await viewFollowedOrder(modal);
      confirmedTotals.set(ref, 0);
      const detail = page.getByTestId('order-detail');
      expect(await detail.getByTestId('detail-unit-price').textContent()).toContain(fenText(priceFen));
      expect(await detail.getByTestId('detail-total').textContent()).toContain(fenText(priceFen));
      await screenshot(page, 'order-detail-refused');
    } finally {
      await control.setBalance(userId, before);
    }
  });

  it('an order sent while the merchant is unreachable is withdrawn, and the merchant coming back charges nothing', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'succeed' && v.unitRule.min === 1 && v.inventoryType === 'unlimited' && purchasable(p, v));
    const modal = await openOrderForm(page, product, variant);
    await control.faults({ errorRate: 1, errorStatus: 503 });
    await reviewAndPay(modal);
    await modal.locator('[data-testid="order-outcome"]:is([data-intent-status="queued"], [data-intent-status="unknown"])').waitFor({ timeout: MERCHANT_WAIT_MS });
    const ref = await viewFollowedOrder(modal);
    confirmedTotals.set(ref, 0);
    const detail = page.getByTestId('order-detail');
    await detail.getByTestId('action-withdraw').click();
    await page.getByTestId('action-withdraw-confirm').click();
    const outcome = detail.getByTestId('withdraw-outcome');
    await outcome.waitFor();
    expect(['withdrawn', 'checking']).toContain(await outcome.getAttribute('data-outcome'));
    await screenshot(page, 'order-withdrawn-offline');
    await control.faults({ errorRate: 0 });
    await waitForDetailStatus(page, ['withdrawn'], MERCHANT_WAIT_MS);
    // Long enough for the outbox's next passes: the ref is retired, never sent.
    await page.waitForTimeout(5_000);
    expect(chargesOf(await ledger(), ref)).toEqual([]);
  });
});

describe('top-up accounts as a person types them', () => {
  it('cleans a pasted phone number before checking, confirms it as it will be sent, and shows the recharged account when done', async () => {
    const { product, variant } = pickFresh(
      (p, v) => p.productType === 'topup' && /话费/.test(p.name) && v.supply === 'succeed' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v),
    );
    const modal = await openOrderForm(page, product, variant);
    const phone = modal.locator('input[data-testid^="order-field-"][type="tel"]').first();
    await phone.fill(' 138 0013 8000 ');
    for (const other of await modal.locator('input[data-testid^="order-field-"]:not([type="tel"])').all()) await other.fill('123456789');
    await phone.blur();
    expect(await modal.getByTestId('order-field-error').count()).toBe(0);
    await modal.getByTestId('order-submit').click();
    const confirmation = modal.getByTestId('order-confirmation');
    await confirmation.waitFor();
    expect(await confirmation.getByTestId('confirm-entry').first().textContent()).toContain('13800138000');
    expect(await confirmation.getByTestId('confirm-entry').first().textContent()).not.toContain('138 0013');
    await screenshot(page, 'order-confirmation-topup');
    const confirmed = await moneyIn(confirmation.getByTestId('confirm-total'));
    await confirmation.getByTestId('order-place').click();
    await modal.locator('[data-testid="order-outcome"][data-state="completed"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    const ref = await viewFollowedOrder(modal);
    confirmedTotals.set(ref, confirmed);
    expect(await page.getByTestId('order-detail').getByTestId('detail-recharged').textContent()).toContain('13800138000');
    await closeOverlays(page);
    await goTo(page, 'orders');
    const row = page.locator(`[data-testid="order-row"][data-ref="${ref}"]`);
    await expect.poll(() => row.textContent()).toContain('138****8000');
    expect(await row.textContent()).not.toContain('13800138000');
  });
});

describe('stock and availability are one status, and Buy follows it', () => {
  it('shows one status per variant, disables Buy with the reason at 0 left, and enables it again when stock returns', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.inventoryType === 'tracked' && (v.remainingUnits ?? 0) > 2 && v.supply === 'succeed' && purchasable(p, v));
    const drawer = await openProduct(page, product);
    const row = variantRow(page, variant);
    await expect.poll(() => row.getByTestId('supply-status').getAttribute('data-supply')).toBe('available');
    expect(await row.getByTestId('supply-status').count()).toBe(1);
    // The buyer watches it; the merchant runs out and says so by webhook (this computer's receiver).
    await drawer.getByTestId('watch-toggle').click();
    await expect.poll(() => drawer.getByTestId('watch-toggle').getAttribute('aria-checked')).toBe('true');
    await closeOverlays(page);
    await enableLocalWebhooks();
    await openProduct(page, product);
    await control.changeProduct(product.productRef, { variantRef: variant.variantRef, remainingUnits: 0 });
    await expect.poll(() => row.getByTestId('supply-status').getAttribute('data-supply'), { timeout: MERCHANT_WAIT_MS }).toBe('outOfStock');
    expect(await row.getByTestId('variant-buy').isDisabled()).toBe(true);
    expect(await row.getByTestId('variant-buy-reason').textContent()).toContain('缺货');
    await screenshot(page, 'product-out-of-stock');
    // The catalog row says one thing, not "available" beside "out of stock".
    await closeOverlays(page);
    const catalogRow = page.locator(`[data-testid="catalog-row"][data-product-ref="${product.productRef}"]`);
    expect(await catalogRow.getByTestId('supply-status').count()).toBe(1);
    // Stock again: Buy comes back.
    await openProduct(page, product);
    await control.changeProduct(product.productRef, { variantRef: variant.variantRef, remainingUnits: 5 });
    await expect.poll(() => row.getByTestId('supply-status').getAttribute('data-supply'), { timeout: MERCHANT_WAIT_MS }).toBe('available');
    expect(await row.getByTestId('variant-buy').isDisabled()).toBe(false);
  });
});

describe('the changed screens, looked at', () => {
  it('in zh-CN and English, light and dark: product statuses, the form with an error, the confirmation, an order detail', async () => {
    const { product, variant } = pickFresh((p, v) => p.productType === 'card' && v.supply === 'succeed' && v.unitRule.min === 1 && v.unitRule.max > 1 && purchasable(p, v));
    const someOrder = [...confirmedTotals.keys()][0] ?? '';
    for (const language of ['zh', 'en'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const tag = `${language}-${scheme}`;
        await openProduct(page, product);
        await screenshot(page, `look-${tag}-product`);
        const modal = await openOrderForm(page, product, variant);
        await typeUnits(modal, String(variant.unitRule.max + 1));
        await modal.getByTestId('order-units-error').waitFor();
        await screenshot(page, `look-${tag}-form-error`);
        await typeUnits(modal, '1');
        await modal.getByTestId('order-submit').click();
        await modal.getByTestId('order-confirmation').waitFor();
        await screenshot(page, `look-${tag}-confirmation`);
        await closeOverlays(page);
        await goTo(page, 'orders');
        await page.locator(`[data-testid="order-row"][data-ref="${someOrder}"]`).click();
        await page.getByTestId('order-detail').getByTestId('order-timeline').waitFor();
        await screenshot(page, `look-${tag}-detail`);
        await closeOverlays(page);
      }
      if (language === 'zh') await page.getByTestId('language-switch').click();
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('language-switch').click();
    expect(problems).toEqual([]);
  });
});

describe('the book', () => {
  it('charged every order the UI placed exactly the total the buyer confirmed, and nothing else', async () => {
    const book = await ledger();
    expect(confirmedTotals.size).toBeGreaterThanOrEqual(6);
    for (const [ref, total] of confirmedTotals) {
      const charged = chargesOf(book, ref).reduce((sum, amount) => sum + amount, 0);
      expect({ ref, charged }).toEqual({ ref, charged: total });
    }
    const foreign = book.entries.filter((entry) => entry.kind === 'charge' && !confirmedTotals.has(entry.clientOrderRef));
    expect(foreign).toEqual([]);
  });
});
