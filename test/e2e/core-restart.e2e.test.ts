// Issue 13: core runs in its own process. Killed while the app is open in Chromium, the web host
// restarts it; the page says "Reconnecting to the app's core…" meanwhile, and when the core is back the
// banner goes and the screens show their data again — without a page reload. To look at the banner
// (zh-CN and English, light and dark) the web host is paused (SIGSTOP) while it is shown, so the restart
// waits for the pictures; SIGCONT lets it go on.
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openApp, screenshot } from './support/browser';
import { connectDemo, ensureCatalog, goTo } from './support/app-steps';
import { findCorePid, parentPid } from './support/core-process';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let paused: number | null = null;

beforeAll(async () => {
  host = await startWebHost();
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterAll(async () => {
  if (paused !== null) process.kill(paused, 'SIGCONT');
  await browser?.close();
  await host?.stop();
});

/** The running core process's pid (polls: right after a restart there is a moment with none). */
async function corePid(): Promise<number> {
  let pid: number | null = null;
  await expect.poll(() => (pid = findCorePid(host.pid)), { timeout: 30_000 }).not.toBeNull();
  if (pid === null) throw new Error('no core process');
  return pid;
}

describe.runIf(process.platform === 'linux')('the core process dies while the app is open', () => {
  it('shows "reconnecting", then the data again, without reloading the page', async () => {
    await connectDemo(page);
    await page.getByTestId('connect-continue').click();
    await ensureCatalog(page);
    // A mark on the page's window: a reload would lose it.
    await page.evaluate(() => Object.assign(globalThis, { stillTheSamePage: true }));
    await expect(page.getByTestId('core-reconnecting').count()).resolves.toBe(0);

    const firstCore = await corePid();
    const webHost = parentPid(firstCore);
    expect(webHost).not.toBeNull();
    process.kill(firstCore, 'SIGKILL');
    const banner = page.getByTestId('core-reconnecting');
    await banner.waitFor();
    // The header does not go on saying 在线 from what the dead core last knew.
    await expect(page.getByTestId('online-indicator').getAttribute('data-state')).resolves.toBe('coreReconnecting');
    await expect(page.getByTestId('online-indicator').textContent()).resolves.toContain('正在重新连接');
    // Hold the restart while the banner is looked at.
    process.kill(webHost ?? -1, 'SIGSTOP');
    paused = webHost;
    for (const language of ['zh', 'en'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `core-reconnecting-${language}-${scheme}`);
      }
      if (language === 'zh') {
        await expect(banner.textContent()).resolves.toContain('正在重新连接应用核心');
        await page.getByTestId('language-switch').click();
      }
    }
    await expect(banner.textContent()).resolves.toContain('Reconnecting to the app’s core');
    await page.emulateMedia({ colorScheme: 'light' });
    process.kill(webHost ?? -1, 'SIGCONT');
    paused = null;

    // Back: the banner goes by itself, and the screens read their data from the new core process.
    await banner.waitFor({ state: 'detached', timeout: 60_000 });
    const secondCore = await corePid();
    expect(secondCore).not.toBe(firstCore);
    await goTo(page, 'catalog');
    await page.getByTestId('catalog-row').first().waitFor();
    await goTo(page, 'orders');
    await page.getByTestId('orders-table').waitFor();
    await page.getByTestId('header-balance').waitFor();
    await expect(page.getByTestId('online-indicator').getAttribute('data-state')).resolves.toBe('online');
    await expect(page.evaluate(() => (globalThis as { stillTheSamePage?: boolean }).stillTheSamePage)).resolves.toBe(true);
    await page.getByTestId('language-switch').click();
    expect(problems).toEqual([]);
  }, 180_000);
});
