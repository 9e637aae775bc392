// The merchant's access refusals as the buyer meets them in the real UI (built renderer, Debian
// Chromium, web host with its demo merchant): the key revoked at the merchant, an order placed. The
// order is kept and the dialog says what to do (replace the key in Settings; it waits and is sent once
// the key works), nothing is charged; after the new key is entered in Settings the order goes out by
// itself and the sandbox's ledger shows exactly one charge for it.
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { closeOverlays, goTo, MERCHANT_WAIT_MS, openOrderForm, pick, reviewAndPay } from './support/app-steps';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct, type SandboxControl } from './support/sandbox-control';

let session: DemoSession;
let page: Page;
let problems: string[];
let control: SandboxControl;
let products: ControlProduct[];
let userId = '';

beforeAll(async () => {
  session = await startDemoSession();
  ({ page, problems, control, products, userId } = session);
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('access-refusals', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

describe('an order under a revoked key', () => {
  it('is kept with what to do, charges nothing, and is sent once after the key is replaced in Settings', async () => {
    const { product, variant } = pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
    // The form has its template; then the merchant revokes the key, before the buyer pays.
    const modal = await openOrderForm(page, product, variant);
    const { apiKey: newKey } = await control.rotateKey(userId);
    await reviewAndPay(modal);
    const parked = modal.locator('[data-testid="order-outcome"][data-intent-status="needs_key"]');
    await parked.waitFor({ timeout: MERCHANT_WAIT_MS });
    const panel = parked.getByTestId('order-access-park');
    expect(await panel.getAttribute('data-park')).toBe('needs_key');
    // What to do, in the buyer's language: replace the key in Settings; the order waits.
    await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('请在“设置”中更换密钥');
    expect(await panel.textContent()).toContain('密钥可用后自动发送');
    expect(await panel.getByTestId('action-withdraw').count()).toBe(1);
    await screenshot(page, 'order-needs-key');

    await modal.getByTestId('order-view').click();
    const detail = page.getByTestId('order-detail');
    const ref = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
    expect(ref).toMatch(/^[A-Za-z0-9_-]+$/);
    await detail.getByTestId('order-access-park').waitFor();
    // The refused attempt's requestId is kept for support — unless a background request (the first
    // sync, a poll) met the revoked key first, and then this order was parked without being sent.
    const requestIds = detail.getByTestId('detail-request-ids');
    if ((await requestIds.count()) > 0) expect(await requestIds.textContent()).toMatch(/req_[0-9a-f]{24}/);
    expect((await control.ledger(userId)).entries.filter((e) => e.clientOrderRef === ref)).toEqual([]);

    await goTo(page, 'settings');
    await page.getByTestId('settings-new-key').fill(newKey);
    await page.getByTestId('settings-new-key-save').click();
    // Sent by itself once the new key is accepted: exactly one charge.
    await expect
      .poll(async () => (await control.ledger(userId)).entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref).length, { timeout: MERCHANT_WAIT_MS, interval: 500 })
      .toBe(1);
    const book = await control.ledger(userId);
    expect(book.entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref)).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
