// A merchant that answers HTTP 500 to every create, as the buyer meets it in the real UI (built
// renderer, Debian Chromium, web host with its demo merchant and the sandbox's fault serverErrorOn):
// the order is sent at most 3 times (counted at the sandbox, GET /control/requests), then the dialog
// and the order's detail say the merchant failed it, with the merchant's request IDs and a Retry; the
// orders list shows the state; nothing is charged. Once the merchant is well, Retry looks the order up
// first and sends the same ref: exactly one charge in the sandbox's ledger. Photographed in zh-CN and
// English, light and dark.
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SERVER_FAILURES } from '../../src/core/merchant/retry-policy';
import { screenshot } from './support/browser';
import { closeOverlays, goTo, MERCHANT_WAIT_MS, openOrderForm, pick, reviewAndPay, waitForDetailStatus } from './support/app-steps';
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
  if (context.task.result?.state === 'fail') await session.recordFailure('server-failures', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await control?.faults({ serverErrorOn: [] }).catch(() => undefined);
  await session?.stop();
});

/** The order's row in the orders list (not the queue card above it). */
const rowOf = (ref: string) => page.locator(`[data-testid="order-row"][data-ref="${ref}"]`);

/** The order's detail opened from the orders list, in its waiting state. */
async function openFailingFromList(ref: string): Promise<void> {
  await closeOverlays(page);
  await goTo(page, 'orders');
  await rowOf(ref).click();
  await page.getByTestId('order-detail').getByTestId('order-server-failing').waitFor();
}

describe('a merchant that answers 500 to every create', () => {
  it(`sends at most ${MAX_SERVER_FAILURES} creates, waits for the buyer with the requestIds, and Retry charges once`, async () => {
    const { product, variant } = pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
    const modal = await openOrderForm(page, product, variant);
    await control.faults({ serverErrorOn: ['orderCreate'] });
    await reviewAndPay(modal);
    const outcome = modal.locator('[data-testid="order-outcome"][data-intent-status="merchant_failing"]');
    await outcome.waitFor({ timeout: MERCHANT_WAIT_MS });
    const panel = outcome.getByTestId('order-server-failing');
    expect(await panel.getByTestId('server-failing-body').textContent()).toContain(`商户已 ${MAX_SERVER_FAILURES} 次返回服务器错误`);
    expect(await panel.getByTestId('action-retry-failing').count()).toBe(1);
    const inDialog = (await panel.getByTestId('server-failing-request-ids').textContent()) ?? '';

    await modal.getByTestId('order-view').click();
    const detail = page.getByTestId('order-detail');
    const ref = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
    expect(ref).toMatch(/^[A-Za-z0-9_-]+$/);
    const failing = detail.getByTestId('order-server-failing');
    await failing.waitFor();
    expect(await detail.locator('[data-testid="order-status"][data-status="merchant_failing"]').count()).toBeGreaterThan(0);

    // Counted at the merchant: exactly the ceiling's creates, all refused, and nothing more while it waits.
    const creates = async (): Promise<{ status: number; requestId: string }[]> => (await control.requests({ path: '/orders/create', clientOrderRef: ref })).map((r) => ({ status: r.status, requestId: r.requestId }));
    const refused = await creates();
    expect(refused.map((r) => r.status)).toEqual(Array.from({ length: MAX_SERVER_FAILURES }, () => 500));
    // The merchant's request IDs are shown for support, every create's among them: in the dialog's
    // panel, and in the detail's facts (its panel does not list them twice).
    const inDetail = (await detail.getByTestId('detail-request-ids').textContent()) ?? '';
    for (const r of refused) {
      expect(inDialog).toContain(r.requestId);
      expect(inDetail).toContain(r.requestId);
    }
    expect(await failing.getByTestId('server-failing-request-ids').count()).toBe(0);
    expect((await control.ledger(userId)).entries.filter((e) => e.clientOrderRef === ref)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'order-merchant-failing-zh-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'order-merchant-failing-zh-dark');
    await page.waitForTimeout(5_000);
    expect(await creates()).toHaveLength(MAX_SERVER_FAILURES);

    // In English (the header's switch, with the drawer closed), dark and light.
    await closeOverlays(page);
    await page.getByTestId('language-switch').click();
    await openFailingFromList(ref);
    expect(await page.getByTestId('order-detail').getByTestId('server-failing-body').textContent()).toContain(`server error (HTTP 500) ${MAX_SERVER_FAILURES} times`);
    await screenshot(page, 'order-merchant-failing-en-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'order-merchant-failing-en-light');
    await closeOverlays(page);
    await page.getByTestId('language-switch').click();

    // The orders list says it too.
    await goTo(page, 'orders');
    await rowOf(ref).locator('[data-testid="order-status"][data-status="merchant_failing"]').waitFor();
    expect(await rowOf(ref).textContent()).toContain('等待中：商户多次处理失败');
    await screenshot(page, 'orders-merchant-failing-zh-light');

    // The merchant is well again; the buyer retries from the detail: looked up first, then the same ref, charged once.
    await control.faults({ serverErrorOn: [] });
    await rowOf(ref).click();
    await page.getByTestId('order-detail').getByTestId('action-retry-failing').click();
    await waitForDetailStatus(page, ['completed']);
    const all = await control.requests({ clientOrderRef: ref });
    expect(all.filter((r) => r.method === 'POST' && r.status === 200)).toHaveLength(1);
    // The first request after the retry is the look-up by its ref.
    const lastRefused = all.map((r) => r.requestId).indexOf(refused.at(-1)?.requestId ?? '');
    expect(all.slice(lastRefused + 1).map((r) => `${r.method} ${r.status}`).slice(0, 2)).toEqual(['GET 404', 'POST 200']);
    await expect
      .poll(async () => (await control.ledger(userId)).entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref).length, { timeout: MERCHANT_WAIT_MS, interval: 500 })
      .toBe(1);
    expect(problems).toEqual([]);
  });
});
