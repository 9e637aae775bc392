// The buyer's whole basic job in the real UI (built renderer, Debian Chromium),
// served by the web host (`npm run web -- --demo`) with the sandbox as its demo merchant. One host and
// one page for the file: the steps build on each other like a buyer's afternoon does.
import type { Browser, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openApp, screenshot } from './support/browser';
import {
  closeOverlays,
  connectDemo,
  ensureCatalog,
  fillPurchaseFields,
  goTo,
  MERCHANT_WAIT_MS,
  openOrderForm,
  openProduct,
  pick,
  revealCard,
  search,
  submitAndViewOrder,
  waitForDetailStatus,
} from './support/app-steps';
import { purchasable, sandboxControl, type ControlProduct, type SandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let control: SandboxControl;
let products: ControlProduct[];
/** The demo account the one-click demo connected to (its ledger proves charges). */
let demoUserId: string;
let cardOrderRef = '';
/** Game top-ups ask for a zone from a list; the video and music ones for an account only. */
const GAME = /王者|原神|游戏|点券|梦幻|大话|西游/;

beforeAll(async () => {
  host = await startWebHost();
  control = sandboxControl(host.controlUrl, host.controlToken);
  products = await control.products(500);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterEach(async (context) => {
  // What the screen showed when a step failed, next to the other screenshots.
  if (context.task.result?.state === 'fail') await screenshot(page, `failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('a new buyer on the demo merchant', () => {
  it('connects to the demo merchant in one click and sees the balance', async () => {
    await page.getByTestId('connect-screen').waitFor();
    await screenshot(page, '01-connect');
    await connectDemo(page);
    await expect.poll(() => page.getByTestId('account-balance').textContent()).toMatch(/¥\s?10,000\.00/);
    await screenshot(page, '02-connect-success');
    await page.getByTestId('connect-continue').click();
    await ensureCatalog(page);
    expect(problems).toEqual([]);
  });

  it('browses and searches the catalog in Chinese as they type', async () => {
    await screenshot(page, '03-catalog');
    const all = Number(((await page.getByTestId('catalog-count').textContent()) ?? '').replace(/\D/g, ''));
    expect(all).toBeGreaterThan(50);
    await search(page, '腾讯视频');
    // Results follow the typing: fewer rows, and the best ones carry the words typed.
    await expect.poll(async () => Number(((await page.getByTestId('catalog-count').textContent()) ?? '').replace(/\D/g, '')), { timeout: 10_000 }).toBeLessThan(all);
    const names = await page.getByTestId('catalog-row-name').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names[0], names.join(' | ')).toContain('腾讯视频');
    await screenshot(page, '04-catalog-search');
    await search(page, '');
  });

  it('orders a card product and sees its codes: masked first, revealed on demand', async () => {
    const { product, variant } = pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
    await openProduct(page, product);
    await screenshot(page, '05-product');
    const modal = await openOrderForm(page, product, variant);
    await expect.poll(() => modal.getByTestId('order-total').textContent()).toContain(variant.price);
    await screenshot(page, '06-order-form-card');
    cardOrderRef = await submitAndViewOrder(page, modal);
    expect(cardOrderRef).not.toBe('');
    await waitForDetailStatus(page, ['completed']);
    const masked = page.getByTestId('order-detail').getByTestId('detail-card-masked');
    await masked.first().waitFor();
    await screenshot(page, '07-order-detail-cards');
    await page.getByTestId('detail-open-vault').click();
    await closeOverlays(page);
    const card = page.getByTestId('vault-screen').getByTestId('vault-card').first();
    const { masked: maskedNo, cardNo: plain } = await revealCard(card, () => screenshot(page, '08-vault-revealed'));
    expect(maskedNo).toMatch(/[*•]/);
    expect(plain).not.toMatch(/[*•]/);
    expect(plain.length).toBeGreaterThanOrEqual(6);
    // The masked form shows the real number's ends.
    expect(plain.endsWith(maskedNo.replace(/^.*[*•]/, ''))).toBe(true);

    // Copy goes through the host (audited) into this tab's clipboard, never shown on screen.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await page.evaluate(`navigator.clipboard.writeText('before the copy')`);
    await card.getByTestId('vault-copy-no').click();
    await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(plain);
    await card.getByTestId('vault-card-masked').waitFor();
  });

  it('orders a top-up through its template, gives the verification code, and sees it complete', async () => {
    const { product, variant } = pick(
      products,
      (p, v) => p.productType === 'topup' && v.supply === 'needsVerification' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v) && !GAME.test(p.name),
    );
    const modal = await openOrderForm(page, product, variant);
    // Sending an empty form shows the inline errors of the required fields, nothing is sent.
    await modal.getByTestId('order-submit').click();
    await modal.getByTestId('order-field-error').first().waitFor();
    await fillPurchaseFields(page, modal);
    await expect.poll(() => modal.getByTestId('order-field-error').count()).toBe(0);
    await screenshot(page, '09-order-form-topup');
    await submitAndViewOrder(page, modal);
    await waitForDetailStatus(page, ['verifying']);
    await page.getByTestId('action-verification-code').click();
    await page.getByTestId('action-code-input').fill('246810');
    await page.getByTestId('action-code-submit').click();
    await waitForDetailStatus(page, ['processing', 'completed']);
    await waitForDetailStatus(page, ['completed']);
    await expect.poll(() => page.getByTestId('action-verification-code').count()).toBe(0);
    await closeOverlays(page);
  });

  it('cancels one order and gets a refund on another', async () => {
    // A top-up waiting for its code can still be cancelled (allowedActions says so).
    const { product, variant } = pick(
      products,
      (p, v) => p.productType === 'topup' && v.supply === 'needsVerification' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v) && !GAME.test(p.name),
    );
    const modal = await openOrderForm(page, product, variant);
    await fillPurchaseFields(page, modal);
    await submitAndViewOrder(page, modal);
    await waitForDetailStatus(page, ['verifying']);
    await page.getByTestId('action-cancel').click();
    await page.getByTestId('action-cancel-reason').fill('买错了');
    await page.getByTestId('action-cancel-confirm').click();
    await waitForDetailStatus(page, ['cancelled'], 15_000);
    await expect.poll(() => page.getByTestId('action-cancel').count()).toBe(0);
    await closeOverlays(page);

    // The completed card order: a full refund, pending first, then succeeded.
    await goTo(page, 'orders');
    await page.locator(`[data-testid="order-row"][data-ref="${cardOrderRef}"]`).click();
    await waitForDetailStatus(page, ['completed']);
    await page.getByTestId('action-refund').click();
    await page.getByTestId('action-refund-reason').fill('卡密无法使用');
    await page.getByTestId('action-refund-submit').click();
    const timeline = page.getByTestId('order-timeline');
    await timeline.getByText('申请退款').waitFor();
    await expect.poll(() => timeline.getByText('退款成功').count()).toBe(0);
    await screenshot(page, '10-refund-pending');
    await timeline.getByText('退款成功').waitFor({ timeout: MERCHANT_WAIT_MS });
    await screenshot(page, '11-refund-succeeded');
    await closeOverlays(page);
  });

  it('goes offline, queues an order, sees it in the queue, and sees it go through exactly once when back online', async () => {
    const { product, variant } = pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
    demoUserId = await demoAccountUserId();
    // The form is open (its template cached) when the merchant stops answering.
    const modal = await openOrderForm(page, product, variant);
    const chargesBefore = (await control.ledger(demoUserId)).entries.filter((entry) => entry.kind === 'charge').length;
    await control.faults({ errorRate: 1, errorStatus: 503 });
    try {
      const ref = await submitAndViewOrder(page, modal);
      await closeOverlays(page);
      await goTo(page, 'orders');
      const queued = page.locator(`[data-testid="queue-row"][data-ref="${ref}"]`);
      await queued.waitFor();
      await screenshot(page, '12-orders-offline-queue');
      await control.faults({ errorRate: 0 });
      await queued.waitFor({ state: 'detached', timeout: MERCHANT_WAIT_MS });
      await page.locator(`[data-testid="order-row"][data-ref="${ref}"] [data-testid="order-status"]:is([data-status="pending"], [data-status="processing"], [data-status="completed"], [data-status="accepted"])`).waitFor();
      await screenshot(page, '13-orders-list');
      const charges = (await control.ledger(demoUserId)).entries.filter((entry) => entry.kind === 'charge');
      expect(charges.length).toBe(chargesBefore + 1);
      expect(charges.filter((entry) => entry.clientOrderRef === ref)).toHaveLength(1);
    } finally {
      await control.faults({ errorRate: 0 });
    }
  });

  it('switches the language between 中文 and English', async () => {
    await goTo(page, 'settings');
    await page.getByTestId('settings-screen').waitFor();
    await screenshot(page, '14-settings');
    await expect.poll(() => page.getByTestId('nav-catalog').textContent()).toBe('商品目录');
    await page.getByTestId('language-switch').click();
    await expect.poll(() => page.getByTestId('nav-catalog').textContent()).toBe('Catalog');
    await expect.poll(() => page.getByTestId('nav-orders').textContent()).toBe('Orders');
    await screenshot(page, '15-settings-english');
    await page.getByTestId('language-switch').click();
    await expect.poll(() => page.getByTestId('nav-catalog').textContent()).toBe('商品目录');
    expect(problems).toEqual([]);
  });

  it('turns on webhooks for the demo merchant and stores an ngrok authtoken without ever seeing it again', async () => {
    await goTo(page, 'settings');
    const events = page.getByTestId('settings-events');
    const chooseTunnel = async (label: string): Promise<void> => {
      await events.getByTestId('settings-tunnel').click();
      await page.locator('.ant-select-item-option').filter({ hasText: label }).click();
    };
    await chooseTunnel('仅本机');
    await events.getByTestId('settings-events-save').click();
    // Applied at once: the receiver comes up, the app reaches its own address, webhooks are live.
    await expect.poll(() => page.getByTestId('events-health').textContent(), { timeout: 30_000, interval: 500 }).toContain('消息推送（Webhook）工作正常');
    await expect.poll(() => page.getByTestId('events-health').textContent()).toMatch(/http:\/\/127\.0\.0\.1:\d+\/hooks\/[A-Za-z0-9_-]{43}/);
    await screenshot(page, '16-settings-webhooks-live');

    await chooseTunnel('ngrok');
    const token = 'e2eNgrokToken' + 'Zq81';
    await events.getByTestId('settings-ngrok-authtoken').fill(token);
    await events.getByTestId('settings-ngrok-authtoken-save').click();
    await expect.poll(() => events.textContent()).toContain('已保存在密钥存储中');
    await expect.poll(() => events.getByTestId('settings-ngrok-authtoken').inputValue()).toBe('');
    expect(await page.content()).not.toContain(token);

    // Back to the path that works here (ngrok cannot reach the internet from this machine).
    await chooseTunnel('仅本机');
    await events.getByTestId('settings-events-save').click();
    await expect.poll(() => page.getByTestId('events-health').textContent(), { timeout: 30_000, interval: 500 }).toContain('消息推送（Webhook）工作正常');
    expect(problems).toEqual([]);
  });
});

/** The connected account's user ID, as the settings screen shows it. */
async function demoAccountUserId(): Promise<string> {
  await goTo(page, 'settings');
  const text = ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim();
  expect(text).not.toBe('');
  return text;
}
