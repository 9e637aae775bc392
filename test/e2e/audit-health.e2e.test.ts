// The audit log and the webhook health panel as a new buyer reads them, in the real UI (built renderer,
// Debian Chromium) through the web host and its demo merchant. Card #1 of an order is revealed, its
// number copied and the order exported; the audit log in zh-CN then names the card "#1" as the vault
// does, shows one row per action (a reveal, a copy of the card number, an export) and words the details
// in Chinese. The health panel shows polling as a normal mode, then the webhook side's receiver and
// tunnel. Screenshots: both screens in zh-CN and English, light and dark.
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buyCardOrder, closeOverlays, goTo, openProduct, pick } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';

let session: DemoSession;
let page: Page;
let ref = '';
let number = '';
const PASSWORD = 'Plum-风筝-7731';
/** English words the old audit rows carried: none may show in zh-CN. */
const ENGLISH_DETAILS = ['selected cards', 'not yet exported', 'copy of', 'cardNo', 'password-protected', 'written to', 'acknowledged'];

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('audit-health', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

async function setTheme(label: string): Promise<void> {
  await goTo(page, 'settings');
  await page.getByTestId('settings-theme').locator('label').filter({ hasText: label }).click();
}

const auditRows = (action: string): Locator => page.locator(`[data-testid="audit-row"][data-action="${action}"]`);

async function openAudit(): Promise<Locator> {
  await closeOverlays(page);
  await page.getByTestId('nav-audit').click();
  const screen = page.getByTestId('audit-screen');
  await screen.waitFor();
  return screen;
}

describe('the audit log tells the truth in the buyer’s language', () => {
  it('buys one card, reveals card #1, copies its number and exports the order', async () => {
    ({ ref } = await buyCardOrder(page, session.products, 1, []));
    await goTo(page, 'vault');
    const row = page.locator(`[data-testid="vault-card"][data-ref="${ref}"]`).first();
    await row.waitFor();
    number = ((await row.getByTestId('vault-card-order').textContent()) ?? '').replace(/^订单\s*/, '').replace(/\s*#1$/, '').trim();
    expect(await row.getByTestId('vault-card-order').textContent()).toMatch(/#1$/);
    await row.getByTestId('vault-reveal').click();
    await row.getByTestId('vault-card-no').waitFor();
    await row.getByTestId('vault-copy-no').click();
    await page.locator('.ant-message-notice').first().waitFor();
    await row.getByTestId('vault-hide').click();
    await row.locator('.ant-checkbox').first().click();
    await page.getByTestId('vault-export').click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.getByTestId('export-password').fill(PASSWORD);
    await dialog.getByTestId('export-password-confirm').fill(PASSWORD);
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await dialog.getByTestId('export-submit').click();
    await download;
    await dialog.getByTestId('export-result').waitFor();
    await dialog.getByTestId('export-close').click();
  }, 240_000);

  it('zh-CN: "#1", one row per action, details in Chinese', async () => {
    const screen = await openAudit();
    await expect.poll(() => auditRows('export').count()).toBe(1);
    // One reveal and one copy: the copy is not a second "revealed" row.
    expect(await auditRows('reveal').count()).toBe(1);
    expect(await auditRows('copy').count()).toBe(1);
    const reveal = (await auditRows('reveal').textContent()) ?? '';
    const copy = (await auditRows('copy').textContent()) ?? '';
    const exported = (await auditRows('export').textContent()) ?? '';
    expect(reveal).toContain('查看');
    expect(reveal).toContain(`${number} #1`);
    expect(copy).toContain('复制');
    expect(copy).toContain(`${number} #1`);
    expect(copy).toContain('卡号已复制到剪贴板');
    expect(exported).toContain(`${number} #1`);
    expect(exported).toContain('带密码保护的 XLSX（AES-256 加密）');
    // The web host hands the file to the browser: the row names the download, not the host's staging folder.
    expect(exported).toContain('已在浏览器中下载（');
    expect(exported).not.toContain('保存到');
    const text = (await screen.innerText()) ?? '';
    for (const word of ENGLISH_DETAILS) expect(text).not.toContain(word);
    expect(text).not.toContain('#0');
    expect(text).not.toContain(ref);
    await screenshot(page, 'audit-health-01-audit-zh-light');
  });

  it('the same rows in English, and both themes', async () => {
    await setTheme('深色');
    await openAudit();
    await screenshot(page, 'audit-health-02-audit-zh-dark');
    await page.getByTestId('language-switch').click();
    await expect.poll(() => page.getByTestId('nav-catalog').textContent()).toBe('Catalog');
    await openAudit();
    expect(await auditRows('copy').textContent()).toContain('Card number copied to the clipboard');
    expect(await auditRows('export').textContent()).toContain('Password-protected XLSX (AES-256)');
    await screenshot(page, 'audit-health-03-audit-en-dark');
    await setTheme('Light');
    await openAudit();
    await screenshot(page, 'audit-health-04-audit-en-light');
    await page.getByTestId('language-switch').click();
    await expect.poll(() => page.getByTestId('nav-catalog').textContent()).not.toBe('Catalog');
  });
});

describe('the health panel speaks per mode', () => {
  const health = (): Locator => page.getByTestId('events-health');
  /** zh-CN light and dark, then English light and dark, back in zh-CN at the end. */
  const shootBoth = async (name: string): Promise<void> => {
    for (const language of ['zh', 'en'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(language === 'zh' ? (theme === 'light' ? '浅色' : '深色') : theme === 'light' ? 'Light' : 'Dark');
        await health().scrollIntoViewIfNeeded();
        await screenshot(page, `${name}-${language}-${theme}`);
      }
      await page.getByTestId('language-switch').click();
    }
  };


  it('polling: a normal mode, not a receiver "down"', async () => {
    await goTo(page, 'settings');
    await expect.poll(() => health().getAttribute('data-mode')).toBe('polling');
    expect(await health().getByTestId('events-health-mode').textContent()).toBe('订单状态通过定时查询更新');
    const text = (await health().textContent()) ?? '';
    expect(text).not.toContain('未运行');
    await shootBoth('audit-health-05-polling');
  }, 60_000);

  it('webhooks (this computer only): receiver and tunnel up, and no stale time beside 0 received', async () => {
    await goTo(page, 'settings');
    await page.getByTestId('settings-tunnel').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '仅本机' }).click();
    await page.getByTestId('settings-events-save').click();
    await expect.poll(() => health().getAttribute('data-mode'), { timeout: 30_000 }).toBe('webhooks');
    await expect.poll(() => health().textContent(), { timeout: 30_000 }).toContain('正常');
    const text = (await health().textContent()) ?? '';
    // Nothing from the merchant yet (the path probe is ours): "none", not a time beside "收到 0".
    if (text.includes('收到 0')) expect(await health().getByTestId('events-health-last').textContent()).toBe('接收服务启动以来尚未收到');
    await shootBoth('audit-health-06-webhooks');
    expect(session.problems).toEqual([]);
  }, 90_000);

  it('a watch turned on notifies the first price change', async () => {
    const { product, variant } = pick(session.products, (p, v) => p.productType === 'card' && v.availability === 'available' && p.productRef !== session.products[0]?.productRef);
    const drawer = await openProduct(page, product);
    await drawer.getByTestId('watch-toggle').click();
    await expect.poll(() => drawer.getByTestId('watch-toggle').getAttribute('aria-checked')).toBe('true');
    await session.control.changeProduct(product.productRef, { variantRef: variant.variantRef, price: ((Math.round(Number(variant.price) * 100) + 111) / 100).toFixed(2) });
    const notice = page.getByTestId('notification-productChanged');
    await notice.first().waitFor({ timeout: 30_000 });
    expect(await notice.first().textContent()).toContain(product.name);
    await closeOverlays(page);
  }, 60_000);
});
