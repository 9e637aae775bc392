// The sync bar tells the truth in the real UI (built renderer, Debian Chromium, web host with its demo
// merchant): a new buyer's first sync says it is the first, names its step of three in Chinese (and in
// English after switching) with its counts; once done, "last synced" shows the time; after the buyer
// watches a product, the next sync sends its list page and then only that product's order forms, and
// the bar says for how many watched or ordered variants (issue 15); a later sync
// failing under the merchant's 503s keeps that time and says what failed in Chinese, with the
// merchant code and request ID on a detail row — never the raw English error. Screenshots of the bar
// in each step and after the failure, zh-CN and English, light and dark.
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openApp, screenshot } from './support/browser';
import { closeOverlays, connectDemo, openProduct } from './support/app-steps';
import { sandboxControl, type SandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';
import type { Browser } from '@playwright/test';

/** The first sync spends more than a minute's catalog quota (170 requests): it waits out one window. */
const FIRST_SYNC_MS = 180_000;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let control: SandboxControl;

beforeAll(async () => {
  host = await startWebHost();
  control = sandboxControl(host.controlUrl, host.controlToken);
  // Slow answers, so the first sync's steps stay on screen long enough to be read and pictured.
  await control.faults({ latencyMs: 2500 });
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `sync-status-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const bar = (): Locator => page.getByTestId('sync-bar');
const text = async (locator: Locator): Promise<string> => ((await locator.textContent()) ?? '').trim();

async function bothSchemes(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the sync bar', () => {
  it('says a first sync is the first and names its step in Chinese and English', async () => {
    await page.getByTestId('connect-screen').waitFor();
    await connectDemo(page);
    await page.getByTestId('connect-continue').click();
    await page.getByTestId('catalog-screen').waitFor();
    await expect.poll(() => text(bar().getByTestId('last-synced'))).toBe('正在进行首次同步');
    // Before the product list's first page nobody knows the work: a moving bar, no percentage.
    await bar().getByTestId('sync-bar-indeterminate').waitFor({ timeout: 5_000 });
    expect(await text(bar().getByTestId('sync-progress'))).toMatch(/^第 1 步（共 3 步）：商品列表 · 已完成 \d+ 个请求，总数尚不确定$/);
    await screenshot(page, 'sync-bar-zh-indeterminate-light');
    // Nothing on the screen says "never synced" while the first sync runs.
    expect(await page.getByText('从未同步').count()).toBe(0);
    expect(await page.getByText('商品目录尚未下载').count()).toBe(0);
    const progress = bar().getByTestId('sync-progress');
    await page.locator('[data-testid="sync-progress"][data-phase="details"]').waitFor({ timeout: 60_000 });
    const chinese = await text(progress);
    expect(chinese).toMatch(/第 2 步（共 3 步）：商品详情 · \d+ \/ 60 件商品/);
    expect(chinese).not.toMatch(/details|templates/);
    await bothSchemes('sync-bar-zh-progress');

    await page.getByTestId('language-switch').click();
    await expect.poll(() => text(bar().getByTestId('last-synced'))).toBe('First sync in progress');
    await expect.poll(() => text(progress)).toMatch(/Step 2 of 3: product details · \d+ of 60 products/);
    await bothSchemes('sync-bar-en-progress');
    await page.getByTestId('language-switch').click();
    // Nothing watched or ordered yet: no order form is fetched, and the sync ends after the details.
    await expect.poll(() => text(bar().getByTestId('last-synced')), { timeout: FIRST_SYNC_MS }).toMatch(/^上次同步：/);
  }, FIRST_SYNC_MS + 60_000);

  it('after a watch, the next sync sends its list page and then only the watched product’s order forms, and says so', async () => {
    const products = await control.products(60);
    const watched = products.find((p) => p.variants.length > 1);
    if (!watched) throw new Error('no product with several variants');
    // Slow answers, so each step stays on screen long enough to be read and pictured. They start before
    // the watch: the watched-product poll prefetches a watched product's order forms too, and must not
    // have them all before the sync counts its work.
    await control.faults({ latencyMs: 6000 });
    try {
      const drawer = await openProduct(page, watched);
      await drawer.getByTestId('watch-toggle').click();
      await expect.poll(() => drawer.getByTestId('watch-toggle').getAttribute('aria-checked'), { timeout: 30_000 }).toBe('true');
      await closeOverlays(page);
      await bar().getByTestId('sync-now').click();
      const progress = bar().getByTestId('sync-progress');
      await page.locator('[data-testid="sync-progress"][data-phase="list"]').waitFor({ timeout: 10_000 });
      expect(await text(progress)).toMatch(/^第 1 步（共 3 步）：商品列表/);
      await bothSchemes('sync-bar-zh-list');
      await page.getByTestId('language-switch').click();
      await expect.poll(() => text(progress)).toMatch(/^Step 1 of 3: product list/);
      await bothSchemes('sync-bar-en-list');
      await page.getByTestId('language-switch').click();
      // Slower still for the order forms: each stays in flight 20 s, so the step outlasts two languages'
      // screenshots on a loaded machine (at 6 s the sync ended between them).
      await control.faults({ latencyMs: 20_000 });

      const count = watched.variants.length;
      await page.locator('[data-testid="sync-progress"][data-phase="templates"]').waitFor({ timeout: 30_000 });
      expect(await text(progress)).toMatch(new RegExp(`^第 3 步（共 3 步）：下单表单（${count} 个关注或下过单的规格） · \\d+ / ${count} 个规格`));
      await bothSchemes('sync-bar-zh-templates');
      await page.getByTestId('language-switch').click();
      await expect.poll(() => text(progress)).toMatch(new RegExp(`^Step 3 of 3: order forms \\(for ${count} watched or ordered variants\\) · \\d+ of ${count} variants`));
      await bothSchemes('sync-bar-en-templates');
      await page.getByTestId('language-switch').click();
      // Quick answers again before waiting for the end: on a loaded machine the slow answers alone can
      // outlast any fixed wait, and the claim here is that the sync ends, not how fast.
      await control.faults({ latencyMs: 0 });
      await page.locator('[data-testid="sync-progress"]').waitFor({ state: 'detached', timeout: 90_000 });
    } finally {
      await control.faults({ latencyMs: 0 });
      // Back in Chinese whatever happened above (the next test reads Chinese words).
      if ((await page.locator('html').getAttribute('lang')) !== 'zh-CN') await page.getByTestId('language-switch').click();
    }
  }, 240_000);

  it('keeps the last synced time through a sync the merchant fails with 503, and says why in Chinese', async () => {
    // No sync of the test before still running (its Sync now would be disabled).
    await page.locator('[data-testid="sync-progress"]').waitFor({ state: 'detached', timeout: 90_000 });
    const lastSynced = await text(bar().getByTestId('last-synced'));
    expect(lastSynced).toMatch(/^上次同步：/);
    await control.faults({ latencyMs: 0, errorRate: 1, errorStatus: 503 });
    try {
      await bar().getByTestId('sync-now').click();
      const failure = bar().getByTestId('sync-failure');
      await failure.waitFor({ timeout: 60_000 });
      expect(await text(bar().getByTestId('last-synced'))).toBe(lastSynced);
      expect(await failure.getAttribute('data-kind')).toBe('merchant');
      const words = await text(failure);
      expect(words).toContain('上次同步未完成。');
      expect(words).toContain('商户系统暂时无法工作，请稍后再同步。');
      expect(words).toContain('上次完整同步的目录仍然保留。');
      expect(words).not.toMatch(/merchant error|TEMPORARILY_UNAVAILABLE|HTTP 503|Never|从未同步/);
      expect(await text(failure.getByTestId('sync-failure-detail'))).toMatch(/^商户错误码 503001 · 请求编号：req_[0-9a-f]+$/);
      await bothSchemes('sync-bar-zh-failed');

      await page.getByTestId('language-switch').click();
      await expect.poll(() => text(failure)).toContain('The last sync did not finish.');
      expect(await text(failure.getByTestId('sync-failure-detail'))).toMatch(/^Merchant code 503001 · Request ID: req_[0-9a-f]+$/);
      expect(await text(bar().getByTestId('last-synced'))).toMatch(/^Last synced /);
      await bothSchemes('sync-bar-en-failed');
      await page.getByTestId('language-switch').click();
    } finally {
      await control.faults({ errorRate: 0 });
    }
    expect(problems).toEqual([]);
  }, 180_000);
});
