// Refunds and failures in words (issue 24 point 8), in Chromium through the web host and its demo
// merchant, secrets in memory only: a refund request shows "退款处理中" at once, then the order list and
// detail show 已退款 / 部分退款 with the very amounts the sandbox's ledger refunded; a batch row the
// merchant refused (422103) says why in the order dialog's words, the code beside; the audit row of a
// browser export says it was downloaded and names the file, no host folder; and only a card order's
// confirmation warns that card codes will not open after a restart, never a top-up's.
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buyCardOrder, closeOverlays, fillPurchaseFields, goTo, MERCHANT_WAIT_MS, openOrderForm, openProduct, pick, variantRow, waitForDetailStatus } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type Ledger } from './support/sandbox-control';

let session: DemoSession;
let page: Page;
const fenOf = (yuan: string): number => Math.round(Number(yuan) * 100);
const refunds = { full: '', part: '' };

beforeAll(async () => {
  session = await startDemoSession('zh-CN', { memorySecrets: true });
  page = session.page;
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('refunds-in-words', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

const ledger = (): Promise<Ledger> => session.control.ledger(session.userId);
const refundedFen = (book: Ledger, ref: string): number => book.entries.filter((e) => e.kind === 'refund' && e.clientOrderRef === ref).reduce((sum, e) => sum + fenOf(e.amount), 0);
const chargedFen = (book: Ledger, ref: string): number => book.entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref).reduce((sum, e) => sum + fenOf(e.amount), 0);
const detail = (): Locator => page.getByTestId('order-detail');
const listRow = (ref: string): Locator => page.locator(`[data-testid="order-row"][data-ref="${ref}"]`);

async function setTheme(label: '浅色' | '深色'): Promise<void> {
  await goTo(page, 'settings');
  await page.getByTestId('settings-theme').locator('label').filter({ hasText: label }).click();
}

/** The merchant grants the app's pending refund (control API), once the request has reached it. */
async function grant(ref: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await session.control.advanceOrder(ref, 'refund.succeeded');
      return;
    } catch (error) {
      // 409 until the request is there, or when the demo granted it by itself already.
      if (refundedFen(await ledger(), ref) > 0) return;
      if (Date.now() > deadline) throw error;
      await page.waitForTimeout(300);
    }
  }
}

/** Asks for a refund in the open detail; "退款处理中" must show at once (before the merchant decides). */
async function requestRefund(amountYuan: string | null, shot: string): Promise<void> {
  await waitForDetailStatus(page, ['completed']);
  await detail().getByTestId('action-refund').click();
  if (amountYuan !== null) await page.getByTestId('action-refund-amount').fill(amountYuan);
  await page.getByTestId('action-refund-reason').fill('卡密无法使用');
  const clicked = Date.now();
  await page.getByTestId('action-refund-submit').click();
  const pending = detail().locator('[data-testid="detail-refund"][data-kind="pending"]');
  // At once: from the click (the request on its way), not from the merchant's next poll (15 s and more).
  await pending.waitFor({ timeout: 5_000 });
  const shownAfterMs = Date.now() - clicked;
  console.info(`refund pending shown ${shownAfterMs} ms after the click`);
  expect(shownAfterMs).toBeLessThan(5_000);
  expect(await pending.textContent()).toContain('退款处理中');
  await screenshot(page, shot);
}

describe('refunds and failures in words', () => {
  it('warns that card codes will not open after a restart for a card order, never for a top-up', async () => {
    const card = pick(session.products, (p, v) => p.productType === 'card' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
    let modal = await openOrderForm(page, card.product, card.variant);
    await modal.getByTestId('order-submit').click();
    await modal.getByTestId('order-confirmation').waitFor();
    expect(await modal.getByTestId('memory-only-secrets').count()).toBe(1);
    await closeOverlays(page);

    const topup = pick(session.products, (p, v) => p.productType === 'topup' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v));
    modal = await openOrderForm(page, topup.product, topup.variant);
    await fillPurchaseFields(page, modal);
    await modal.getByTestId('order-submit').click();
    await modal.getByTestId('order-confirmation').waitFor();
    expect(await modal.getByTestId('memory-only-secrets').count()).toBe(0);
    await screenshot(page, 'refunds-00-topup-confirmation-no-card-warning');
    await closeOverlays(page);
  }, 180_000);

  it('a full refund shows 退款处理中 at once, then 已退款 with the ledger’s amount in the list and the detail', async () => {
    const { ref, productRef } = await buyCardOrder(page, session.products, 1, []);
    refunds.full = ref;
    await requestRefund(null, 'refunds-01-pending-zh-light');
    expect(refundedFen(await ledger(), ref)).toBe(0);
    await grant(ref);
    await waitForDetailStatus(page, ['refunded'], MERCHANT_WAIT_MS);
    const book = await ledger();
    expect(refundedFen(book, ref)).toBe(chargedFen(book, ref));
    const tag = detail().locator('[data-testid="detail-refund"][data-kind="refunded"]');
    await tag.waitFor();
    expect(Number(await tag.getAttribute('data-amount'))).toBe(refundedFen(book, ref));
    expect(await detail().locator('[data-testid="detail-refund"][data-kind="pending"]').count()).toBe(0);
    expect(await detail().getByTestId('detail-refund-entry').first().getAttribute('data-state')).toBe('succeeded');
    await closeOverlays(page);
    await goTo(page, 'orders');
    const listed = listRow(ref).locator('[data-testid="order-row-refund"][data-kind="refunded"]');
    await listed.waitFor({ timeout: 15_000 });
    expect(Number(await listed.getAttribute('data-amount'))).toBe(refundedFen(book, ref));
    expect(await listed.textContent()).toBe(`已退款 ¥${(refundedFen(book, ref) / 100).toFixed(2)}`);
    expect(productRef).toBeGreaterThan(0);
  }, 240_000);

  it('a partial refund: pending at once (dark), then 部分退款 of the total, equal to the ledger', async () => {
    await setTheme('深色');
    const { ref } = await buyCardOrder(page, session.products, 1, []);
    refunds.part = ref;
    await requestRefund('1.00', 'refunds-02-pending-zh-dark');
    await grant(ref);
    const tag = detail().locator('[data-testid="detail-refund"][data-kind="partlyRefunded"]');
    await tag.waitFor({ timeout: MERCHANT_WAIT_MS });
    const book = await ledger();
    expect(refundedFen(book, ref)).toBe(100);
    expect(Number(await tag.getAttribute('data-amount'))).toBe(refundedFen(book, ref));
    await closeOverlays(page);
    await goTo(page, 'orders');
    const listed = listRow(ref).locator('[data-testid="order-row-refund"][data-kind="partlyRefunded"]');
    await listed.waitFor({ timeout: 15_000 });
    expect(Number(await listed.getAttribute('data-amount'))).toBe(refundedFen(book, ref));
    expect(await listed.textContent()).toBe(`部分退款 ¥1.00（共 ¥${(chargedFen(book, ref) / 100).toFixed(2)}）`);
    expect(await listRow(ref).getByTestId('order-status').getAttribute('data-status')).toBe('completed');
    await screenshot(page, 'refunds-03-orders-list-zh-dark');
    await setTheme('浅色');
    await goTo(page, 'orders');
    await listed.waitFor();
    await screenshot(page, 'refunds-04-orders-list-zh-light');
  }, 240_000);

  it('a batch row the merchant refused for balance says so in the order dialog’s words, its code beside', async () => {
    const card = pick(session.products, (p, v) => p.productType === 'card' && v.entryMode === 'none' && v.unitRule.min === 1 && v.unitRule.step === 1 && v.inventoryType === 'unlimited' && purchasable(p, v));
    const balance = (await ledger()).balance;
    await session.control.setBalance(session.userId, '0.01');
    try {
      await openProduct(page, card.product);
      await variantRow(page, card.variant).getByTestId('variant-batch').click();
      const modal = page.getByTestId('batch-modal');
      await modal.getByTestId('batch-pick').waitFor();
      await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name: '余额测试.csv', mimeType: 'text/csv', buffer: Buffer.from('数量\r\n1\r\n', 'utf8') });
      await modal.getByTestId('batch-preview').waitFor({ timeout: MERCHANT_WAIT_MS });
      await modal.getByTestId('batch-next').click();
      await modal.getByTestId('batch-confirm').waitFor();
      // A batch of card orders is warned about, like a card order.
      expect(await modal.getByTestId('memory-only-secrets').count()).toBe(1);
      await modal.getByTestId('batch-pay').click();
      const status = modal.getByTestId('batch-status');
      await expect.poll(() => status.getAttribute('data-failed'), { timeout: MERCHANT_WAIT_MS, interval: 300 }).toBe('1');
      const failure = status.getByTestId('batch-row-failure');
      await failure.waitFor();
      expect(await failure.getAttribute('data-code')).toBe('422103');
      expect(await failure.textContent()).toBe('余额不足 商户错误码 422103');
      await screenshot(page, 'refunds-05-batch-row-failure');
      const download = page.waitForEvent('download');
      await status.getByTestId('batch-export-csv').click();
      const { readFileSync } = await import('node:fs');
      expect(readFileSync(await (await download).path(), 'utf8')).toContain('余额不足（商户错误码 422103）');
      await closeOverlays(page);
    } finally {
      await session.control.setBalance(session.userId, balance);
    }
  }, 240_000);

  it('the audit row of a browser export says it was downloaded, with the file name, and no folder of the host', async () => {
    await goTo(page, 'vault');
    const row = page.locator(`[data-testid="vault-card"][data-ref="${refunds.part}"]`).first();
    await row.waitFor({ timeout: 30_000 });
    await row.locator('.ant-checkbox').first().click();
    await page.getByTestId('vault-export').click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.getByTestId('export-format-csv').click();
    await dialog.getByTestId('export-accept-plain').click();
    if ((await dialog.getByTestId('export-accept-refunded').count()) > 0) await dialog.getByTestId('export-accept-refunded').click();
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await dialog.getByTestId('export-submit').click();
    const fileName = (await download).suggestedFilename();
    await dialog.getByTestId('export-result').waitFor();
    await dialog.getByTestId('export-close').click();
    await closeOverlays(page);
    await page.getByTestId('nav-audit').click();
    const exported = page.getByTestId('audit-screen').locator('[data-testid="audit-row"][data-action="export"]').first();
    await exported.waitFor();
    const text = (await exported.textContent()) ?? '';
    expect(text).toContain(`已在浏览器中下载（${fileName}）`);
    expect(text).not.toContain('保存到');
    // A file name, no folder: neither the host's staging folder nor any other path.
    expect(text).not.toMatch(/[/\\]/);
    expect(text).not.toContain(session.host.dataDir);
    await screenshot(page, 'refunds-06-audit-download');
    expect(session.problems).toEqual([]);
  }, 120_000);
});
