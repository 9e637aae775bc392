// Labels, not codes (contract §7.11), through the real UI (built renderer, Debian Chromium, web host and
// its demo merchant): a zone picked as 安卓QQ区 in the order form reads 安卓QQ区 on the review, in the
// order's detail and in the orders list (whole, never masked to a***q), while the merchant received the
// code android-qq (the sandbox's control API) and charged exactly the confirmed total (its ledger); an
// order kept before labels were, whose option the form no longer lists, shows its code as the merchant's.
// Pictures of the review and the detail in zh-CN, light and dark, go to the temp folder (/tmp on Linux).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { purchaseTemplateSchema } from '../../src/shared/merchant/template';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeOverlays, goTo, MERCHANT_WAIT_MS, openOrderForm, pick } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable } from './support/sandbox-control';

let session: DemoSession;
let page: Page;
/** The product and variant the first test ordered (the second writes an old-style order of it). */
let ordered: { productRef: number; variantRef: number; priceFen: number } | null = null;

const yuanToFen = (yuan: string): number => Math.round(Number(yuan) * 100);
const ACCOUNT = 'player12345';

/** The same screen in the light and the dark look (the app follows the system's), into the temp folder and the test output. */
async function photograph(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(tmpdir(), `${name}-zh-CN-${scheme}.png`) });
    await screenshot(page, `${name}-zh-CN-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  session = await startDemoSession();
  ({ page } = session);
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('option-labels', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

describe('a value picked from the template is shown by its label; its code is what is sent', () => {
  it('reads 安卓QQ区 on the review, the detail and the list, and the merchant received android-qq', async () => {
    const { product, variant } = pick(session.products, (p, v) => p.name.startsWith('王者荣耀点券直充') && v.supply === 'succeed' && v.unitRule.min === 1 && purchasable(p, v));
    const before = await session.control.ledger(session.userId);
    ordered = { productRef: product.productRef, variantRef: product.variants.length > 1 ? variant.variantRef : 0, priceFen: yuanToFen(variant.price) };
    const modal = await openOrderForm(page, product, variant);

    // Pick the zone by its label, as the buyer does, and type the account.
    await modal.getByTestId('order-field-0-zone').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '安卓QQ区' }).click();
    await modal.getByTestId('order-field-0-account').fill(ACCOUNT);
    await modal.getByTestId('order-submit').click();
    const confirmation = modal.getByTestId('order-confirmation');
    await confirmation.waitFor();
    const reviewed = (await confirmation.getByTestId('confirm-entries').textContent()) ?? '';
    expect(reviewed).toContain('游戏区服：安卓QQ区');
    expect(reviewed).not.toContain('android-qq');
    const confirmedFen = yuanToFen(((await confirmation.getByTestId('confirm-total').textContent()) ?? '').replace(/[^\d.]/g, ''));
    await photograph('order-review-labels');

    await confirmation.getByTestId('order-place').click();
    await modal.getByTestId('order-outcome').waitFor();
    await modal.getByTestId('order-view').click();
    const detail = page.getByTestId('order-detail');
    const ref = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
    await detail.locator('[data-testid="order-status"]:is([data-status="processing"], [data-status="completed"], [data-status="pending"])').first().waitFor({ timeout: MERCHANT_WAIT_MS });
    const recharged = detail.getByTestId('detail-recharged');
    await expect.poll(() => recharged.textContent()).toContain('安卓QQ区');
    expect(await recharged.textContent()).toContain(ACCOUNT);
    expect(await recharged.textContent()).not.toContain('android-qq');
    await photograph('order-detail-labels');

    // The merchant got the code, and charged exactly what was confirmed.
    const received = await session.control.receivedOrder(ref);
    expect(received.purchaseEntries).toEqual([{ account: ACCOUNT, zone: 'android-qq' }]);
    const after = await session.control.ledger(session.userId);
    const charged = after.entries.filter((e) => e.kind === 'charge' && e.clientOrderRef === ref).map((e) => yuanToFen(e.amount));
    expect(charged).toEqual([confirmedFen]);
    expect(yuanToFen(before.balance) - yuanToFen(after.balance)).toBe(confirmedFen);

    // The list: the zone whole, the account masked.
    await goTo(page, 'orders');
    const subtitle = page.locator(`[data-testid="order-row"][data-ref="${ref}"]`).first().getByTestId('order-row-subtitle');
    await expect.poll(() => subtitle.textContent(), { timeout: 30_000 }).toContain('安卓QQ区');
    const listed = (await subtitle.textContent()) ?? '';
    expect(listed).toContain('pla****2345');
    expect(listed).not.toContain('a***q');
    expect(listed).not.toContain('android-qq');
    expect(listed).not.toContain(ACCOUNT);
    await screenshot(page, 'orders-list-labels');
    expect(session.problems).toEqual([]);
  });

  it("shows an order kept before labels were, whose option the merchant's form no longer lists, by its code marked as the merchant's", async () => {
    const { productRef, variantRef, priceFen } = ordered ?? { productRef: 0, variantRef: 0, priceFen: 0 };
    expect(productRef).toBeGreaterThan(0);
    const ref = `o_legacy_${Date.now().toString(36)}`;
    // Behind the running app, as a database from before this change holds it: the bare array of groups,
    // parked for the buyer's confirmation (never sent); and the merchant's form without android-qq.
    const db = new Database(join(session.host.dataDir, 'procure-desk.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(
        `INSERT INTO order_intents (client_order_ref, product_ref, variant_ref, product_type, units, purchase_schema_revision, purchase_entries_json,
           status, attempts, created_at, updated_at, confirmed_unit_price_fen, last_error_code)
         VALUES (?, ?, ?, 'topup', 1, 1, ?, 'needs_confirmation', 0, strftime('%s','now'), strftime('%s','now'), ?, 'SCHEMA_CHANGED')`,
      ).run(ref, productRef, variantRef, JSON.stringify([{ zone: 'android-qq', account: ACCOUNT }]), priceFen);
      const row = db.prepare<[number, number], { template_json: string }>('SELECT template_json FROM templates WHERE product_ref = ? AND variant_ref = ?').get(productRef, variantRef);
      const cached = purchaseTemplateSchema.parse(JSON.parse(row?.template_json ?? 'null'));
      const template = { ...cached, purchaseFields: cached.purchaseFields.map((f) => ({ ...f, options: f.options?.filter((o) => o.value !== 'android-qq') ?? null })) };
      db.prepare('UPDATE templates SET template_json = ? WHERE product_ref = ? AND variant_ref = ?').run(JSON.stringify(template), productRef, variantRef);
    } finally {
      db.close();
    }

    await goTo(page, 'orders');
    await page.getByTestId('orders-refresh').click();
    const subtitle = page.locator(`[data-ref="${ref}"]`).first().getByTestId('order-row-subtitle');
    await expect.poll(() => subtitle.textContent(), { timeout: 30_000 }).toContain('android-qq（商户代码）');
    expect(await subtitle.textContent()).toContain('pla****2345');
    await page.locator(`[data-ref="${ref}"]`).first().click();
    const recharged = page.getByTestId('order-detail').getByTestId('detail-recharged');
    await expect.poll(() => recharged.textContent()).toContain('游戏区服：android-qq（商户代码）');
    await photograph('order-detail-merchant-code');
    expect(session.problems).toEqual([]);
  });
});
