// Issue 26, words a Chinese buyer reads: the first merchant is named from its account (the demo's
// nickname, marked as the merchant's), not "Merchant 1"; Settings names the webhook "消息推送（Webhook）"
// and labels the certificate's subject as technical data; the spend report names its time zone
// ("中国标准时间（UTC+8）", the IANA id apart). Each screen scanned (support/visible-text.ts) and
// pictured in zh-CN light and dark; in English the zone is named in English.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from '@playwright/test';
import { closeOverlays, connectDemo, ensureCatalog, goTo } from './support/app-steps';
import { bridgeCall } from './support/bridge-call';
import { launchChromium, openApp, screenshot } from './support/browser';
import { untranslatedOn } from './support/visible-text';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;

beforeAll(async () => {
  host = await startWebHost();
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function scanned(page: Page, where: string): Promise<void> {
  expect({ where, found: await untranslatedOn(page) }).toEqual({ where, found: [] });
}

/** The switcher, Settings and the spend report, scanned and pictured in one look. */
async function walk(page: Page, look: 'light' | 'dark', nickname: string): Promise<void> {
  await page.keyboard.press('Control+Alt+KeyM');
  await page.getByTestId('switcher-add').waitFor();
  await scanned(page, `switcher ${look}`);
  await screenshot(page, `words-switcher-zh-CN-${look}`);
  await page.keyboard.press('Escape');

  await goTo(page, 'settings');
  const events = page.getByTestId('settings-events');
  await events.waitFor();
  expect(await events.textContent()).toContain('消息推送（Webhook）');
  const ca = page.getByTestId('settings-ca-cert');
  if ((await ca.getAttribute('data-in-use')) === 'true') expect(await ca.textContent()).toContain('证书主体（技术信息）：');
  await scanned(page, `settings ${look}`);
  await screenshot(page, `words-settings-zh-CN-${look}`);
  await events.scrollIntoViewIfNeeded();
  await screenshot(page, `words-settings-events-zh-CN-${look}`);

  await closeOverlays(page);
  await page.getByTestId('nav-dashboard').click();
  const zone = page.getByTestId('dashboard-time-zone');
  await zone.waitFor();
  expect(await zone.textContent()).toBe('按您所在时区计日：中国标准时间（UTC+8）Asia/Shanghai');
  expect(await zone.locator('[data-untranslated="technical"]').textContent()).toBe('Asia/Shanghai');
  await zone.scrollIntoViewIfNeeded();
  await scanned(page, `dashboard ${look}`);
  await screenshot(page, `words-dashboard-zh-CN-${look}`);
  expect(await page.getByTestId('profile-switcher-name').textContent()).toBe(nickname);
}

describe('the first merchant and Settings in a buyer’s words', () => {
  it('names the first merchant from its account and words Settings and the time zone for a buyer, light and dark', async () => {
    const light = await openApp(browser, host.url, 'zh-CN', { colorScheme: 'light' });
    const before = await bridgeCall(light.page, 'profiles.list');
    // Before any account answered: the fallback, which the screens word as "商户 1".
    expect(before.profiles).toMatchObject([{ id: 'p1', name: 'Merchant 1', nameSource: 'fallback' }]);
    await connectDemo(light.page);
    await light.page.getByTestId('connect-continue').click();
    await ensureCatalog(light.page);
    const account = await bridgeCall(light.page, 'account.get');
    expect(account.nickname).not.toBe('');
    await expect.poll(async () => (await bridgeCall(light.page, 'profiles.list')).profiles[0]).toMatchObject({ id: 'p1', name: account.nickname, nameSource: 'account' });
    const name = light.page.getByTestId('profile-switcher-name');
    await expect.poll(() => name.textContent()).toBe(account.nickname);
    // The merchant's words, marked so (the scan and a translator leave them alone).
    expect(await name.getAttribute('data-untranslated')).toBe('merchant');
    await walk(light.page, 'light', account.nickname);
    // The same screens in the dark theme.
    await light.page.emulateMedia({ colorScheme: 'dark' });
    await walk(light.page, 'dark', account.nickname);
    await light.page.emulateMedia({ colorScheme: 'light' });
    expect(light.problems).toEqual([]);

    // In English the zone is named in English; the merchant's nickname stays its own.
    await light.page.getByTestId('language-switch').click();
    try {
      await expect.poll(() => light.page.getByTestId('dashboard-time-zone').textContent()).toContain('China Standard Time (UTC+8)');
      expect(await light.page.getByTestId('profile-switcher-name').textContent()).toBe(account.nickname);
    } finally {
      await bridgeCall(light.page, 'settings.set', { language: 'system' });
    }
  }, 300_000);
});
