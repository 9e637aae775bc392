// Refunded cards in the real UI (built renderer, Debian Chromium) through the web host and
// its demo merchant: a card order completes, the buyer asks for a refund, the merchant grants it
// (the sandbox control API), and the vault then marks its cards (已退款 / Refunded), names them by the
// merchant's order number (never the internal ref), filters them, asks before revealing one, and
// exports them only after the buyer ticks that they go on, with a refund column in the file. The
// sandbox's ledger proves the refund; screenshots show the vault in Chinese and English, light and dark.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../core/export/file-readers';
import { buyCardOrder, closeOverlays, connectDemo, ensureCatalog, goTo, MERCHANT_WAIT_MS, waitForDetailStatus } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl, type ControlProduct, type SandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let control: SandboxControl;
let products: ControlProduct[];
let demoUserId = '';
/** The order refunded (2 cards) and one left valid (1 card): internal refs and merchant numbers. */
const refunded = { ref: '', number: '' };
const valid = { ref: '', number: '' };

beforeAll(async () => {
  host = await startWebHost();
  control = sandboxControl(host.controlUrl, host.controlToken);
  products = await control.products(500);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  await screenshot(page, `refunded-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  // What the web host and its core said, for whoever reads the failure.
  mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
  writeFileSync(join(process.cwd(), 'test-results', 'refunded-cards-web-host.log'), host.stderr());
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** Buys a card order through the order form; answers its internal ref and the merchant's number shown in the detail. */
async function buyCards(units: number, exclude: readonly number[]): Promise<{ ref: string; number: string; productRef: number }> {
  const { ref, productRef } = await buyCardOrder(page, products, units, exclude);
  return { ref, number: await platformNumberInDetail(), productRef };
}

/** The merchant's order number as the open order detail shows it (商户订单号). */
async function platformNumberInDetail(): Promise<string> {
  const cell = page.getByTestId('order-detail').locator('.ant-descriptions-row').filter({ hasText: '商户订单号' }).locator('.ant-descriptions-item-content').first();
  await expect.poll(async () => ((await cell.textContent()) ?? '').trim()).toMatch(/^\d+$/);
  return ((await cell.textContent()) ?? '').trim();
}

const rowsOf = (ref: string): Locator => page.locator(`[data-testid="vault-card"][data-ref="${ref}"]`);

async function chooseRefundFilter(label: string): Promise<void> {
  await page.getByTestId('vault-refund').click();
  await page.locator('.ant-select-item-option').filter({ hasText: label }).click();
}

async function setTheme(label: string): Promise<void> {
  await goTo(page, 'settings');
  await page.getByTestId('settings-theme').locator('label').filter({ hasText: label }).click();
}

describe('cards of a refunded order', () => {
  it('buys two card orders from the demo merchant', async () => {
    await page.getByTestId('connect-screen').waitFor();
    await connectDemo(page);
    await page.getByTestId('connect-continue').click();
    await ensureCatalog(page);
    const first = await buyCards(2, []);
    Object.assign(refunded, { ref: first.ref, number: first.number });
    await closeOverlays(page);
    const second = await buyCards(1, [first.productRef]);
    Object.assign(valid, { ref: second.ref, number: second.number });
    await closeOverlays(page);
    expect(refunded.number).not.toBe(valid.number);
  }, 240_000);

  it('asks for a refund, which the merchant grants: the ledger shows the money back', async () => {
    await goTo(page, 'settings');
    demoUserId = ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim();
    expect(demoUserId).not.toBe('');
    await goTo(page, 'orders');
    await page.locator(`[data-testid="order-row"][data-ref="${refunded.ref}"]`).click();
    await waitForDetailStatus(page, ['completed']);
    await page.getByTestId('action-refund').click();
    await page.getByTestId('action-refund-reason').fill('卡密无法使用');
    await page.getByTestId('action-refund-submit').click();

    // The merchant grants the pending refund (the demo would also grant it by itself after 5 s).
    const charged = (await control.ledger(demoUserId)).entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === refunded.ref);
    expect(charged).toHaveLength(1);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ledger = await control.ledger(demoUserId);
      if (ledger.entries.some((e) => e.kind === 'refund' && e.clientOrderRef === refunded.ref)) break;
      try {
        const order = await control.advanceOrder(refunded.ref, 'refund.succeeded');
        expect(order.platformOrderRef).toBe(refunded.number);
        expect(order.state).toBe('refunded');
        break;
      } catch (error) {
        // 409 "no pending refund" until the app's request has reached the merchant.
        if (Date.now() > deadline) throw error;
        await page.waitForTimeout(300);
      }
    }
    const refunds = (await control.ledger(demoUserId)).entries.filter((e) => e.kind === 'refund' && e.clientOrderRef === refunded.ref);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.amount).toBe(charged[0]?.amount);
    // The app learns it from an authenticated query (the detail follows the order).
    await waitForDetailStatus(page, ['refunded'], MERCHANT_WAIT_MS);
    await closeOverlays(page);
  }, 120_000);

  it('marks the refunded order’s cards in the vault and names orders by the merchant’s number', async () => {
    await goTo(page, 'vault');
    const screen = page.getByTestId('vault-screen');
    await expect.poll(() => screen.getByTestId('vault-card').count()).toBe(3);
    await expect.poll(() => rowsOf(refunded.ref).locator('[data-testid="vault-card-refund-mark"][data-mark="refunded"]').count(), { timeout: 30_000 }).toBe(2);
    expect(await rowsOf(refunded.ref).first().getByTestId('vault-card-refund-mark').textContent()).toBe('已退款');
    expect(await rowsOf(valid.ref).getByTestId('vault-card-refund-mark').count()).toBe(0);
    expect(await rowsOf(refunded.ref).first().getByTestId('vault-card-order').textContent()).toBe(`订单 ${refunded.number} #1`);
    expect(await rowsOf(valid.ref).getByTestId('vault-card-order').textContent()).toBe(`订单 ${valid.number} #1`);
    // The internal ref is nowhere on the screen (only in test attributes).
    expect(await screen.innerText()).not.toContain(refunded.ref);
    await screenshot(page, 'refunded-01-vault-zh-light');

    await chooseRefundFilter('已退款或已取消');
    await expect.poll(() => screen.getByTestId('vault-card').count()).toBe(2);
    expect(await rowsOf(valid.ref).count()).toBe(0);
    await chooseRefundFilter('仅有效');
    await expect.poll(() => screen.getByTestId('vault-card').count()).toBe(1);
    expect(await rowsOf(valid.ref).count()).toBe(1);
    await chooseRefundFilter('有效及已退款');
    await expect.poll(() => screen.getByTestId('vault-card').count()).toBe(3);
  });

  it('asks before revealing a refunded card, naming the refund; cancel reveals nothing', async () => {
    const row = rowsOf(refunded.ref).first();
    await row.getByTestId('vault-reveal').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    const text = (await confirm.textContent()) ?? '';
    expect(text).toContain('已退款');
    expect(text).toContain(refunded.number);
    await screenshot(page, 'refunded-02-reveal-asks');
    await page.getByTestId('vault-refund-confirm-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row.getByTestId('vault-card-no').count()).toBe(0);

    await row.getByTestId('vault-reveal').click();
    await page.getByTestId('vault-refund-confirm-ok').click();
    await expect.poll(async () => ((await row.getByTestId('vault-card-no').textContent()) ?? '').length).toBeGreaterThan(4);
    await row.getByTestId('vault-hide').click();
    // A valid card is revealed without asking.
    const validRow = rowsOf(valid.ref).first();
    await validRow.getByTestId('vault-reveal').click();
    await expect.poll(async () => ((await validRow.getByTestId('vault-card-no').textContent()) ?? '').length).toBeGreaterThan(4);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await validRow.getByTestId('vault-hide').click();
  });

  it('exports the refunded cards only after the buyer ticks that they go on; the file has a refund column', async () => {
    const rows = rowsOf(refunded.ref);
    for (let i = 0; i < (await rows.count()); i++) await rows.nth(i).locator('.ant-checkbox').first().click();
    await rowsOf(valid.ref).locator('.ant-checkbox').first().click();
    await expect.poll(() => page.getByTestId('vault-selected-count').textContent()).toContain('3');
    await page.getByTestId('vault-export').click();
    const dialog = page.getByTestId('export-dialog');
    await expect.poll(() => dialog.getByTestId('export-preview').getAttribute('data-count')).toBe('3');
    expect(await dialog.getByTestId('export-preview').getAttribute('data-refunded')).toBe('2');
    expect(await dialog.getByTestId('export-refunded').textContent()).toContain('2');
    await dialog.getByTestId('export-format-csv').click();
    await dialog.getByTestId('export-accept-plain').click();
    expect(await dialog.getByTestId('export-submit').isDisabled()).toBe(true);
    await dialog.getByTestId('export-accept-refunded').click();
    await screenshot(page, 'refunded-03-export-asks');
    // The web host hands the file to the browser as a download (nothing stays on the host).
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await dialog.getByTestId('export-submit').click();
    const path = await (await download).path();
    await dialog.getByTestId('export-result').waitFor();
    const [headers, ...records] = parseCsv(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
    expect(headers).toEqual(['商品', '规格', '订单号', '卡号', '卡密', '有效期至', '下单时间', '单价（元）', '退款状态', '内部编号']);
    // The order number is a code cell: its trailing TAB keeps it text in a spreadsheet (contract §16.1).
    expect(records.every((r) => r[2]?.endsWith('\t'))).toBe(true);
    const byOrder = records.map((r) => [r[2]?.slice(0, -1), r[8]]);
    expect(byOrder.filter(([number]) => number === refunded.number)).toEqual([
      [refunded.number, '已退款'],
      [refunded.number, '已退款'],
    ]);
    expect(byOrder.filter(([number]) => number === valid.number)).toEqual([[valid.number, '']]);
    await dialog.getByTestId('export-close').click();
    await closeOverlays(page);
  });

  it('names the refunded cards in the audit log by merchant number, with the acknowledgement', async () => {
    await page.getByTestId('nav-audit').click();
    const screen = page.getByTestId('audit-screen');
    const reveal = screen.locator('[data-testid="audit-row"][data-action="reveal"]').filter({ hasText: `${refunded.number} #1` });
    await expect.poll(() => reveal.count()).toBe(1);
    expect(await reveal.textContent()).toContain('已告知买家该订单已退款，买家确认继续');
    expect(await reveal.getByTestId('audit-refund-acknowledged').textContent()).toBe('已知悉退款');
    await screenshot(page, 'refunded-08-audit-log');
    const exported = screen.locator('[data-testid="audit-row"][data-action="export"]').first();
    expect(await exported.textContent()).toContain(refunded.number);
    expect(await screen.innerText()).not.toContain(refunded.ref);
    expect(problems).toEqual([]);
  });

  it('looks right in Chinese and English, light and dark', async () => {
    const shoot = async (name: string): Promise<void> => {
      await goTo(page, 'vault');
      await expect.poll(() => rowsOf(refunded.ref).getByTestId('vault-card-refund-mark').count()).toBe(2);
      await screenshot(page, name);
    };
    await setTheme('深色');
    await shoot('refunded-04-vault-zh-dark');
    await page.getByTestId('language-switch').click();
    await expect.poll(() => page.getByTestId('nav-catalog').textContent()).toBe('Catalog');
    await shoot('refunded-05-vault-en-dark');
    expect(await rowsOf(refunded.ref).first().getByTestId('vault-card-refund-mark').textContent()).toBe('Refunded');
    expect(await rowsOf(refunded.ref).first().getByTestId('vault-card-order').textContent()).toBe(`Order ${refunded.number} #1`);
    await setTheme('Light');
    await shoot('refunded-06-vault-en-light');
    await rowsOf(refunded.ref).first().getByTestId('vault-reveal').click();
    await page.locator('.ant-modal-confirm').waitFor();
    expect(await page.locator('.ant-modal-confirm').textContent()).toContain('refunded');
    await screenshot(page, 'refunded-07-reveal-asks-en');
    await page.getByTestId('vault-refund-confirm-cancel').click();
    await page.getByTestId('language-switch').click();
    expect(problems).toEqual([]);
  });
});
