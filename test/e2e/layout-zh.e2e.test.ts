// Issue 26's layout defects, measured in the built renderer in zh-CN (Chromium, demo merchant): "起"
// only where variants differ in price, no stray space around a name, one sentence said once (the
// withdrawn outcome, the plain-file risk, page titles), notifications under dialogs, a clipped batch
// error with its tooltip, vault rows one line tall, no break inside a Chinese value, the suspended
// header saying it once, no "not numbered yet" on an order never sent, the cancel dialog naming the
// refund (checked against the sandbox's ledger). Screenshots in zh-CN light and dark, into /tmp.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buyCardOrder, closeOverlays, fillPurchaseFields, goTo, MERCHANT_WAIT_MS, openOrderForm, openProduct, pick, search, variantRow, waitForDetailStatus } from './support/app-steps';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct } from './support/sandbox-control';

let session: DemoSession;
let page: Page;

const SHOTS = join(tmpdir(), 'i26-layout');

async function shotBoth(name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SHOTS, `${name}-zh-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const text = async (locator: Locator): Promise<string> => ((await locator.innerText()) ?? '').trim();
const occurrences = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('layout-zh', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

function productWith(like: (product: ControlProduct) => boolean): ControlProduct {
  const found = session.products.find((product) => product.variants.some((variant) => purchasable(product, variant)) && like(product));
  if (found === undefined) throw new Error('the demo catalog has no product of the kind this test needs');
  return found;
}

/** What a click at the middle of the element would reach: the element (a notification) or a drawer. */
async function hitAtMiddle(element: Locator): Promise<{ inNotice: boolean; inDrawer: boolean }> {
  const box = await element.boundingBox();
  expect(box).not.toBeNull();
  return page.evaluate<{ inNotice: boolean; inDrawer: boolean }>(`(() => {
    const hit = document.elementFromPoint(${(box?.x ?? 0) + (box?.width ?? 0) / 2}, ${(box?.y ?? 0) + (box?.height ?? 0) / 2});
    return { inNotice: hit !== null && hit.closest('.ant-notification') !== null, inDrawer: hit !== null && hit.closest('.ant-drawer') !== null };
  })()`);
}

describe('zh-CN layout (issue 26)', () => {
  it('says 起 only where the variants differ in price, and names a variant without a stray space', async () => {
    const single = productWith((p) => p.variants.length === 1);
    const several = productWith((p) => new Set(p.variants.map((v) => v.price)).size > 1);
    await goTo(page, 'catalog');
    for (const [product, from] of [[single, false], [several, true]] as const) {
      await search(page, product.name);
      const price = page.locator(`[data-testid="catalog-row"][data-product-ref="${product.productRef}"]`).getByTestId('catalog-row-price');
      await price.waitFor();
      expect(await text(price)).toMatch(from ? /^¥[\d,.]+ 起$/ : /^¥[\d,.]+$/);
    }
    await search(page, single.name);
    await shotBoth('catalog-single-variant');

    const drawer = await openProduct(page, single);
    const title = drawer.locator('h5').filter({ hasText: '价格走势' });
    const variant = single.variants[0]?.title ?? '';
    expect(await text(title)).toBe(`${variant}的价格走势`);
    await shotBoth('product-drawer-price-history');
    await closeOverlays(page);
  }, 120_000);

  it('never breaks inside a Chinese value of an order entry', async () => {
    // The entries list's own rule (cjk-text.css), at every width a line could end in the name (from
    // the name's own width up); a list without the rule splits it, so the measure can see a split.
    const splitWidths = (className: string): Promise<number[]> =>
      page.evaluate(`(() => {
      const list = document.createElement('ol');
      list.className = '${className}';
      list.style.padding = '0';
      const item = document.createElement('li');
      item.textContent = '角色名: 小明 · 区服: 苹果QQ区 · 游戏账号: 987654321';
      list.append(item);
      document.body.append(list);
      const node = item.firstChild;
      const start = item.textContent.indexOf('小明');
      const widths = [];
      for (let width = 32; width <= 420; width += 2) {
        list.style.width = width + 'px';
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, start + 2);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (tops.size > 1) widths.push(width);
      }
      list.remove();
      return widths;
    })()`);
    expect(await splitWidths('confirm-entries')).toEqual([]);
    expect((await splitWidths('plain-list')).length).toBeGreaterThan(0);
  });

  it('shows a clipped batch error whole on hover', async () => {
    const { product, variant } = pick(session.products, (p, v) => p.productType === 'topup' && /话费充值|流量包|直充/.test(p.name) && v.entryMode === 'single' && purchasable(p, v));
    await openProduct(page, product);
    await variantRow(page, variant).getByTestId('variant-batch').click();
    const modal = page.getByTestId('batch-modal');
    const csv = `手机号,数量\n13800138000,${variant.unitRule.min}\n1380013,0\n`;
    await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name: '充值名单.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    const error = modal.getByTestId('batch-row-error').first();
    await error.waitFor({ timeout: MERCHANT_WAIT_MS });
    const whole = (await error.textContent()) ?? '';
    const box = await error.boundingBox();
    const cell = await error.locator('xpath=ancestor::div[contains(@class,"batch-table-cell")][1]').boundingBox();
    // Clipped: the words need more than the column gives them.
    const clipped = await page.evaluate<boolean>(`(() => {
      const el = document.querySelector('[data-testid="batch-row-error"]');
      return el !== null && el.scrollWidth > el.clientWidth;
    })()`);
    expect(clipped).toBe(true);
    expect((box?.width ?? 0) <= (cell?.width ?? 0) + 1).toBe(true);
    await error.hover();
    const tooltip = page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').filter({ hasText: whole.slice(0, 12) });
    await tooltip.first().waitFor();
    expect(await text(tooltip.first())).toBe(whole);
    await shotBoth('batch-preview-error-tooltip');
    await page.mouse.move(0, 0);
    // The batch dialog can take longer to close than closeOverlays waits on a loaded machine.
    await closeOverlays(page).catch(async () => {
      await page.waitForTimeout(1500);
      await closeOverlays(page);
    });
  }, 120_000);

  it('keeps notifications under the order drawer, a vault row one line tall, the plain-file risk said once, and no page title repeated', async () => {
    const { ref } = await buyCardOrder(page, session.products, 1, []);
    // The order completed while its dialog, then its detail drawer, was open: the notification is
    // under the drawer (a click at its middle reaches the drawer), and still there once it closes.
    const notice = page.getByTestId('notification-orderCompleted').first();
    await notice.waitFor({ timeout: MERCHANT_WAIT_MS });
    const under = await hitAtMiddle(notice);
    await shotBoth('notification-under-drawer');
    expect(under).toEqual({ inNotice: false, inDrawer: true });
    await page.waitForTimeout(5_000);
    await goTo(page, 'vault');
    await notice.waitFor();
    expect(await hitAtMiddle(notice)).toEqual({ inNotice: true, inDrawer: false });
    await shotBoth('notification-after-drawer');
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click();
    const row = page.locator(`[data-testid="vault-card"][data-ref="${ref}"]`).first();
    await row.waitFor();
    for (const id of ['vault-reveal', 'vault-copy-no']) {
      const button = row.getByTestId(id);
      // One line: a small button is 24 px tall, a wrapped one twice that.
      expect((await button.boundingBox())?.height ?? 0).toBeLessThanOrEqual(26);
    }
    // About 56 px: two short lines (product, order), the small table's padding and its 1 px border
    // (115 px before, when 显示/卡号/密码 wrapped).
    const ROW_MAX = 57;
    const rows = page.locator('[data-testid="vault-card"]');
    for (let i = 0; i < (await rows.count()); i++) expect((await rows.nth(i).boundingBox())?.height ?? 0).toBeLessThanOrEqual(ROW_MAX);
    await row.getByTestId('vault-reveal').click();
    await row.getByTestId('vault-card-password').or(row.getByTestId('vault-card-no')).first().waitFor();
    expect((await row.boundingBox())?.height ?? 0).toBeLessThanOrEqual(ROW_MAX);
    await shotBoth('vault-rows');

    await row.locator('.ant-checkbox').first().click();
    await page.getByTestId('vault-export').click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.getByTestId('export-preview').waitFor();
    const risk = '任何拿到该文件的人都能看到并使用其中所有卡密';
    expect(occurrences(await text(dialog), risk)).toBe(0 + 1);
    for (const format of ['csv', 'txt']) {
      await dialog.getByTestId(`export-format-${format}`).click();
      await dialog.getByTestId('export-accept-plain').waitFor();
      expect(occurrences(await text(dialog), risk)).toBe(1);
      expect(occurrences(await text(dialog), '任何拿到')).toBe(1);
    }
    await dialog.getByTestId('export-format-csv').click();
    await shotBoth('export-dialog-plain');
    await closeOverlays(page);

    for (const target of ['vault', 'audit', 'reconcile', 'orders', 'catalog', 'settings', 'aftersales', 'dashboard'] as const) {
      await closeOverlays(page);
      await page.getByTestId(`nav-${target}`).click();
      await page.waitForTimeout(600);
      const heading = await text(page.locator('.app-header h4'));
      const titles = await page.locator('.app-content .ant-card-head-title').allInnerTexts();
      // A card's title (its first line: some carry a note below) is not the page's title again.
      expect({ target, repeats: titles.filter((title) => (title.split('\n')[0] ?? '').trim() === heading) }).toEqual({ target, repeats: [] });
      if (target === 'audit' || target === 'reconcile') await shotBoth(`page-${target}`);
    }
  }, 180_000);

  it('names the refund in the cancel dialog, and the ledger refunds exactly that', async () => {
    const { product, variant } = pick(session.products, (p, v) => p.productType === 'topup' && v.supply === 'needsVerification' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v) && !/王者|原神|游戏|点券|梦幻|大话|西游/.test(p.name));
    const modal = await openOrderForm(page, product, variant);
    await fillPurchaseFields(page, modal);
    await modal.getByTestId('order-submit').click();
    await modal.getByTestId('order-confirmation').waitFor();
    await modal.getByTestId('order-place').click();
    await modal.getByTestId('order-outcome').waitFor();
    await modal.getByTestId('order-view').click();
    const detail = page.getByTestId('order-detail');
    await waitForDetailStatus(page, ['verifying']);
    const ref = (await text(detail.getByTestId('detail-client-ref'))).trim();
    const total = await text(detail.getByTestId('detail-total'));
    await page.getByTestId('action-cancel').click();
    const confirm = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
    await confirm.waitFor();
    expect(await text(confirm.locator('.ant-popconfirm-title'))).toBe(`取消订单并将 ${total} 退回余额？`);
    expect(await text(page.getByTestId('action-cancel-confirm'))).toBe('取消订单');
    expect(await text(page.getByTestId('action-cancel-keep'))).toBe('不取消');
    await shotBoth('cancel-dialog');
    await page.getByTestId('action-cancel-confirm').click();
    await waitForDetailStatus(page, ['cancelled'], 30_000);
    const entries = (await session.control.ledger(session.userId)).entries.filter((entry) => entry.clientOrderRef === ref);
    const yuan = (amount: string): number => Math.round(Number(amount) * 100);
    const shownFen = Math.round(Number(total.replace(/[¥,]/g, '')) * 100);
    expect(entries.filter((e) => e.kind === 'charge').map((e) => yuan(e.amount))).toEqual([shownFen]);
    expect(entries.filter((e) => e.kind === 'refund').map((e) => yuan(e.amount))).toEqual([shownFen]);
    await closeOverlays(page);
  }, 180_000);

  it('says a withdrawn order was withdrawn once, and never promises it a merchant number', async () => {
    await session.control.faults({ serverErrorOn: ['orderCreate'] });
    let ref = '';
    try {
      const { product, variant } = pick(session.products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
      const modal = await openOrderForm(page, product, variant);
      await modal.getByTestId('order-submit').click();
      await modal.getByTestId('order-confirmation').waitFor();
      await modal.getByTestId('order-place').click();
      await modal.locator('[data-testid="order-outcome"][data-intent-status="merchant_failing"]').waitFor({ timeout: MERCHANT_WAIT_MS });
      await modal.getByTestId('action-withdraw').click();
      await page.getByTestId('action-withdraw-confirm').click();
      const outcome = modal.locator('[data-testid="order-outcome"][data-intent-status="withdrawn"]');
      await outcome.waitFor({ timeout: MERCHANT_WAIT_MS });
      // The whole dialog: the withdraw's own outcome and the order's status say it once between them.
      const words = await text(modal);
      expect(occurrences(words, '已撤回')).toBe(1);
      expect(occurrences(words, '订单未发送给商户，也没有扣款。')).toBe(1);
      await shotBoth('order-withdrawn-outcome');
      await modal.getByTestId('order-view').click();
      const detail = page.getByTestId('order-detail');
      await detail.getByTestId('detail-client-ref').waitFor();
      ref = await text(detail.getByTestId('detail-client-ref'));
      expect(await text(detail.getByTestId('detail-platform-ref'))).toBe('未发送给商户');
      expect(await text(page.locator('.ant-drawer-title').first())).not.toContain('尚未生成订单号');
      await shotBoth('order-detail-withdrawn');
    } finally {
      await session.control.faults({ serverErrorOn: [] });
    }
    await goTo(page, 'orders');
    const number = page.locator(`[data-testid="order-row"][data-ref="${ref}"]`).getByTestId('order-row-number');
    await number.waitFor();
    expect(await text(number)).toBe('未发送给商户');
    await shotBoth('orders-withdrawn');
    // Nothing reached the merchant: no charge in its books.
    expect((await session.control.ledger(session.userId)).entries.filter((entry) => entry.clientOrderRef === ref)).toEqual([]);
  }, 180_000);

  it('says a suspension once in the header', async () => {
    await closeOverlays(page);
    await goTo(page, 'catalog');
    await session.control.setSuspended(session.userId, true);
    const shown = page.locator('[data-testid="online-indicator"][data-state="suspended"]');
    for (let attempt = 0; attempt < 20 && (await shown.count()) === 0; attempt++) {
      await page.reload();
      await shown.waitFor({ timeout: 3_000 }).catch(() => undefined);
    }
    await shown.waitFor({ timeout: MERCHANT_WAIT_MS });
    await page.waitForTimeout(1_000);
    expect(occurrences(await text(page.locator('.app-header')), '停用')).toBe(1);
    await shotBoth('header-suspended');
    await session.control.setSuspended(session.userId, false);
    expect(session.problems).toEqual([]);
  }, 120_000);
});
