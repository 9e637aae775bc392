// The machine's Chromium, Chrome or Edge (test/support/browser-executable.ts finds it; never a Playwright
// download) driven through Playwright's library API, one context per test, and screenshots written with
// the test output.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { browserLaunch } from '../../support/browser-executable';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

export function launchChromium(): Promise<Browser> {
  const launch = browserLaunch();
  const launched = chromium.launch({
    ...launch,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  if (!('channel' in launch)) return launched;
  // Playwright's own answer to a channel that is not installed is to download it: ours is to install it.
  return launched.catch((error: unknown) => {
    throw new Error(`PROCURE_BROWSER_CHANNEL=${launch.channel} could not be started: install that browser, or unset the variable to use the usual places`, { cause: error });
  });
}

export interface OpenedApp {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (a crash in the UI fails the test that saw it). */
  problems: string[];
}

export interface AppLook {
  /** The system's light or dark mode (the app's theme follows it unless the buyer chose one). */
  readonly colorScheme?: 'light' | 'dark';
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** A fresh context (no storage shared between tests) with the system language the test wants. */
export async function openApp(browser: Browser, url: string, locale: 'zh-CN' | 'en-US' = 'zh-CN', look: AppLook = {}): Promise<OpenedApp> {
  const context = await browser.newContext({
    locale,
    viewport: look.viewport ?? { width: 1440, height: 900 },
    colorScheme: look.colorScheme ?? 'light',
    timezoneId: 'Asia/Shanghai',
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(url);
  return { context, page, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let antd's drawer/modal motion finish so the picture shows the settled screen.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
