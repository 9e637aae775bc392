// After-sales in the real UI (built renderer, Debian Chromium) through the web
// host and its demo merchant (no webhooks there: replies come by the app's low-frequency polling).
// The buyer buys a card order, opens a case from the order (the form explains what it refuses before
// anything is sent), writes to the merchant and sees the message delivered; the merchant answers
// through the sandbox's control API; the answer arrives by itself with an unread badge on the menu,
// the order and the case, and opening the chat clears them.
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeOverlays, connectDemo, ensureCatalog, goTo, MERCHANT_WAIT_MS, openOrderForm, pick, submitAndViewOrder, waitForDetailStatus } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { controlHeaders, purchasable, sandboxControl, type ControlProduct } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let products: ControlProduct[];
let orderRef = '';
let caseRef = '';
const REPLY = '您好，已为您补发新卡密，请查收。';

beforeAll(async () => {
  host = await startWebHost();
  products = await sandboxControl(host.controlUrl, host.controlToken).products(500);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `aftersale-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** The merchant's staff answers a case (docs/sandbox.md, control API). */
async function merchantReplies(ref: string, text: string): Promise<void> {
  const response = await fetch(`${host.controlUrl}/control/aftersales/${encodeURIComponent(ref)}/reply`, {
    method: 'POST',
    headers: controlHeaders(host.controlToken, 'POST'),
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const unreadOf = async (locator: Locator): Promise<string | null> => locator.getAttribute('data-unread');

describe('after-sales on the demo merchant', () => {
  it('buys a card order and opens a case from it, refused inputs explained first', async () => {
    await page.getByTestId('connect-screen').waitFor();
    await connectDemo(page);
    await page.getByTestId('connect-continue').click();
    await ensureCatalog(page);
    const { product, variant } = pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
    const modal = await openOrderForm(page, product, variant);
    orderRef = await submitAndViewOrder(page, modal);
    await waitForDetailStatus(page, ['completed']);
    const detail = page.getByTestId('order-detail');
    await detail.getByTestId('order-open-case').click();

    const form = page.getByTestId('case-form');
    await form.waitFor();
    // Nothing chosen or written: the form says what is missing, and sends nothing.
    await page.getByTestId('case-submit').click();
    await expect.poll(() => form.getByTestId('case-form-error').count()).toBe(2);
    await form.getByTestId('case-category').click();
    await page.getByTestId('case-category-cardInvalid').click();
    await form.getByTestId('case-description-input').fill('卡密提示无效，已在官网核对过两次。');
    await form.getByTestId('case-form-image-add').click();
    await form.getByTestId('case-form-image-input').fill('http://192.168.1.5/screenshot.png');
    await expect.poll(() => form.getByTestId('case-form-image-error').textContent()).toContain('https://');
    await form.getByTestId('case-form-image-input').fill('https://img.example.com/proof/screenshot.png');
    await expect.poll(() => form.getByTestId('case-form-image-error').count()).toBe(0);
    await expect.poll(() => form.getByTestId('case-form-error').count()).toBe(0);
    await screenshot(page, 'aftersale-01-open-form');
    await page.getByTestId('case-submit').click();

    const chat = page.getByTestId('case-chat');
    await chat.getByTestId('case-ref').waitFor();
    caseRef = ((await chat.getByTestId('case-ref').textContent()) ?? '').trim();
    expect(caseRef).toMatch(/^AS\w+$/);
    // The case names its order by the merchant's order number, never by the internal ref.
    const orderNumber = ((await chat.getByTestId('case-order-number').textContent()) ?? '').trim();
    expect(orderNumber).toMatch(/\d{10,}$/);
    expect(orderNumber).not.toContain(orderRef);
    const title = page.locator('.ant-drawer-title').filter({ hasText: caseRef });
    await expect.poll(() => title.textContent()).toBe(`售后工单 ${caseRef} · 订单 ${orderNumber.split(' ').at(-1) ?? ''}`);
    expect(await chat.getByTestId('case-status').getAttribute('data-state')).toBe('open');
    expect(await chat.getByTestId('case-description').textContent()).toBe('卡密提示无效，已在官网核对过两次。');
    // The image is previewed through the host's own image route (core fetches it), never from the
    // merchant's host, sending no referrer, loaded lazily.
    const image = chat.getByTestId('case-image').first();
    expect(await image.getAttribute('src')).toBe(`/merchant-image?url=${encodeURIComponent('https://img.example.com/proof/screenshot.png')}`);
    expect(await image.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(await image.getAttribute('loading')).toBe('lazy');
    expect(problems).toEqual([]);
  });

  it('writes to the merchant and sees the message delivered', async () => {
    const chat = page.getByTestId('case-chat');
    await chat.getByTestId('case-composer-text').fill('麻烦尽快处理，谢谢！');
    await chat.getByTestId('case-send').click();
    const mine = chat.locator('[data-testid="case-message"][data-sender="buyer"]');
    await mine.first().waitFor();
    expect(await mine.first().getByTestId('case-message-text').textContent()).toBe('麻烦尽快处理，谢谢！');
    await chat.locator('[data-testid="case-message"][data-sender="buyer"][data-delivery="sent"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await mine.count()).toBe(1);
    expect(await chat.getByTestId('case-composer-text').inputValue()).toBe('');
    await screenshot(page, 'aftersale-02-chat-sent');
    await closeOverlays(page);
  });

  it('gets the merchant’s reply by itself, with unread badges on the menu, the order and the case', async () => {
    await goTo(page, 'orders');
    await merchantReplies(caseRef, REPLY);
    // No webhooks in the web host: the app's poll of the open case brings it (15 s after our message).
    const navBadge = page.getByTestId('nav-aftersales-badge');
    await expect.poll(() => unreadOf(navBadge), { timeout: MERCHANT_WAIT_MS, interval: 500 }).toBe('1');
    const orderBadge = page.locator(`[data-testid="order-row"][data-ref="${orderRef}"] [data-testid="order-case-badge"]`);
    await expect.poll(() => unreadOf(orderBadge)).toBe('1');
    await screenshot(page, 'aftersale-03-orders-unread');
    // The order's detail shows the case with its count.
    await page.locator(`[data-testid="order-row"][data-ref="${orderRef}"]`).click();
    const fromOrder = page.getByTestId('order-detail').locator(`[data-testid="order-case-unread"][data-ref="${caseRef}"]`);
    await expect.poll(() => unreadOf(fromOrder)).toBe('1');
    // A second case cannot be opened while this one is open.
    await expect.poll(() => page.getByTestId('order-detail').getByTestId('order-open-case').count()).toBe(0);
    await closeOverlays(page);

    await goTo(page, 'aftersales');
    const row = page.locator(`[data-testid="case-row"][data-ref="${caseRef}"]`);
    await expect.poll(() => unreadOf(row.getByTestId('case-row-unread'))).toBe('1');
    // The list names the order by the merchant's number, not the internal ref.
    expect(await row.getByTestId('case-row-refs').textContent()).toMatch(new RegExp(`^${caseRef} · 订单 \\d{10,}$`));
    expect(await row.textContent()).not.toContain(orderRef);
    await page.getByTestId('case-filter-unread').click();
    await expect.poll(() => page.getByTestId('case-row').count()).toBe(1);
    await screenshot(page, 'aftersale-04-cases-unread');
  });

  it('reads the reply in the chat, which clears every badge', async () => {
    await page.locator(`[data-testid="case-row"][data-ref="${caseRef}"]`).click();
    const chat = page.getByTestId('case-chat');
    const reply = chat.locator('[data-testid="case-message"][data-sender="merchant"]');
    await reply.waitFor();
    expect(await reply.getByTestId('case-message-text').textContent()).toBe(REPLY);
    // In order: ours first, then the merchant's answer.
    const messages = chat.getByTestId('case-message');
    const senders = await Promise.all(Array.from({ length: await messages.count() }, (_, i) => messages.nth(i).getAttribute('data-sender')));
    expect(senders).toEqual(['buyer', 'merchant']);
    expect(await chat.getByTestId('case-status').getAttribute('data-state')).toBe('replied');
    await screenshot(page, 'aftersale-05-chat-reply');
    await expect.poll(() => unreadOf(page.getByTestId('nav-aftersales-badge'))).toBe('0');
    await closeOverlays(page);
    await expect.poll(() => page.getByTestId('case-row').count()).toBe(0);
    await page.getByTestId('case-filter-all').click();
    await expect.poll(() => unreadOf(page.locator(`[data-testid="case-row"][data-ref="${caseRef}"]`).getByTestId('case-row-unread'))).toBe('0');
    await goTo(page, 'orders');
    await expect.poll(() => unreadOf(page.locator(`[data-testid="order-row"][data-ref="${orderRef}"] [data-testid="order-case-badge"]`))).toBe('0');
    expect(problems).toEqual([]);
  });
});
