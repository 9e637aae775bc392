// A buyer's session on the demo merchant, as the e2e files that spend money start it: a web host with
// its own data folder, Chromium, the one-click demo connection, the catalog, and the account's user ID
// (its ledger proves every charge). On a failed step: the screen and what the host said, side by side.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect } from 'vitest';
import { connectDemoToCatalog, goTo } from './app-steps';
import { launchChromium, openApp, SCREENSHOT_DIR, screenshot } from './browser';
import { sandboxControl, type ControlProduct, type SandboxControl } from './sandbox-control';
import { startWebHost, type RunningWebHost, type WebHostStart } from './web-host-process';

export interface DemoSession {
  readonly host: RunningWebHost;
  readonly browser: Browser;
  readonly page: Page;
  /** Page errors seen so far (a crash in the UI fails the test that saw it). */
  readonly problems: string[];
  readonly control: SandboxControl;
  readonly products: ControlProduct[];
  /** The demo account the session connected to. */
  readonly userId: string;
  /** A screenshot and the host's stderr, named after the failed test. */
  recordFailure(prefix: string, testName: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startDemoSession(locale: 'zh-CN' | 'en-US' = 'zh-CN', start: WebHostStart = {}): Promise<DemoSession> {
  const host = await startWebHost(start);
  const control = sandboxControl(host.controlUrl, host.controlToken);
  const products = await control.products(500);
  const browser = await launchChromium();
  const { page, problems } = await openApp(browser, host.url, locale);
  await connectDemoToCatalog(page);
  await goTo(page, 'settings');
  const userId = ((await page.getByTestId('settings-user-id').textContent()) ?? '').trim();
  expect(userId).not.toBe('');
  return {
    host,
    browser,
    page,
    problems,
    control,
    products,
    userId,
    async recordFailure(prefix, testName) {
      await screenshot(page, `${prefix}-failed-${testName.slice(0, 40).replace(/\W+/g, '-')}`);
      // What the host said (it logs no key or secret), next to the picture.
      writeFileSync(join(SCREENSHOT_DIR, `${prefix}-host-stderr.txt`), host.stderr());
    },
    async stop() {
      await browser.close();
      await host.stop();
    },
  };
}
