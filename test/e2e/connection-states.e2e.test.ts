// The connection state as the buyer sees it, in the real UI (built renderer, Debian Chromium, web host
// with its demo merchant), each state driven by the sandbox's real faults: 503 and 429 answers
// (degraded), refused connections (offline), an expired / other-host / untrusted certificate
// (certificate), the account suspended, this address off the allow-list (ipDenied) and the key
// rotated (keyRefused). For each: the header says the state's words, the banner says what to do, and
// the app is back online when the fault ends. Every state is photographed in zh-CN and English, light
// and dark (test-results/screenshots/state-*).
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { closeOverlays, goTo, MERCHANT_WAIT_MS } from './support/app-steps';
import { startDemoSession, type DemoSession } from './support/demo-session';
import type { SandboxControl } from './support/sandbox-control';

let session: DemoSession;
let page: Page;
let problems: string[];
let control: SandboxControl;
let userId = '';

beforeAll(async () => {
  session = await startDemoSession();
  ({ page, problems, control, userId } = session);
  await goTo(page, 'catalog');
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('connection-states', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

const indicator = () => page.getByTestId('online-indicator');
const banner = () => page.getByTestId('status-banner');

/** Reloads the page (its first GET /account meets the fault) until the header shows `state`. */
async function reloadUntil(state: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        await indicator().waitFor();
        await page.locator(`[data-testid="online-indicator"][data-state="${state}"]`).waitFor({ timeout: 5_000 }).catch(() => undefined);
        return indicator().getAttribute('data-state');
      },
      { timeout: MERCHANT_WAIT_MS, interval: 500 },
    )
    .toBe(state);
}

/** The fault has ended: "check again" in the banner, and the header is online, the banner gone. */
async function backOnline(): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await banner().count()) > 0) await banner().getByRole('button', { name: /重新检查|Check again/ }).click().catch(() => undefined);
        return indicator().getAttribute('data-state');
      },
      { timeout: MERCHANT_WAIT_MS, interval: 1_000 },
    )
    .toBe('online');
  expect(await indicator().textContent()).toContain('在线');
  expect(await banner().count()).toBe(0);
}

/** Screenshots of the state in both languages and schemes; the page is left in zh-CN, light. */
async function photograph(name: string, english: readonly string[]): Promise<void> {
  for (const language of ['zh', 'en'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `state-${name}-${language}-${scheme}`);
    }
    if (language === 'zh') await page.getByTestId('language-switch').click();
  }
  const text = (await indicator().textContent()) + ' ' + (await banner().textContent());
  for (const words of english) expect(text).toContain(words);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('language-switch').click();
}

describe('the connection state in the header and the banner', () => {
  it('online at first: the header says 在线 and no banner', async () => {
    await indicator().waitFor();
    expect(await indicator().getAttribute('data-state')).toBe('online');
    expect(await indicator().textContent()).toContain('在线');
    expect(await banner().count()).toBe(0);
  });

  it('503 answers: degraded, "retrying", orders queued; online when they end', async () => {
    await control.faults({ errorRate: 1, errorStatus: 503 });
    await reloadUntil('degraded');
    expect(await indicator().textContent()).toContain('商户服务不稳定');
    expect(await banner().textContent()).toContain('商户系统出现问题');
    expect(await banner().textContent()).toContain('新订单会排队');
    expect(await banner().textContent()).toContain('503001');
    await photograph('degraded', ['Merchant struggling', 'The merchant is having trouble']);
    await control.faults({ errorRate: 0 });
    await backOnline();
  });

  it('429 answers: degraded with the quota code; online when they end', async () => {
    await control.faults({ errorRate: 1, errorStatus: 429 });
    await reloadUntil('degraded');
    expect(await banner().textContent()).toContain('429001');
    await control.faults({ errorRate: 0, errorStatus: 500 });
    await backOnline();
  });

  it('the merchant refuses connections: offline, the saved catalog still browsable; online when it is back', async () => {
    await control.faults({ refuseConnections: true });
    await reloadUntil('offline');
    expect(await indicator().textContent()).toContain('离线');
    expect(await banner().textContent()).toContain('商户服务器拒绝了连接');
    expect(await banner().textContent()).toContain('仍可浏览本机保存的目录');
    await page.getByTestId('catalog-offline').waitFor();
    await photograph('offline', ['Offline', 'refused the connection']);
    await control.faults({ refuseConnections: false });
    await backOnline();
  });

  for (const [mode, zh, en] of [
    ['expired', '证书已过期', 'has expired'],
    ['otherHost', '证书属于另一个地址', 'for another address'],
    ['untrusted', '不信任的机构签发', 'does not trust'],
  ] as const) {
    it(`a ${mode} certificate: certificate, with which problem and where to go; online when the good one is back`, async () => {
      await control.faults({ tls: mode });
      await reloadUntil('certificate');
      expect(await indicator().textContent()).toContain('证书有问题');
      expect(await banner().textContent()).toContain(zh);
      expect(await banner().getByTestId('status-banner-settings').count()).toBe(1);
      if (mode === 'untrusted') await photograph('certificate', ['Certificate problem', en]);
      await control.faults({ tls: 'valid' });
      await backOnline();
    });
  }

  it('the account suspended: suspended, contact the merchant, checked automatically; online when lifted', async () => {
    await control.setSuspended(userId, true);
    await reloadUntil('suspended');
    expect(await indicator().textContent()).toContain('账户已停用');
    expect(await banner().textContent()).toContain('请联系商户');
    expect(await banner().textContent()).toContain('应用会自动检查');
    await photograph('suspended', ['Account suspended', 'Contact your merchant']);
    await control.setSuspended(userId, false);
    await backOnline();
  });

  it('this address off the allow-list: ipDenied, ask the merchant to allow it; online when allowed', async () => {
    await control.setIpAllowList(userId, ['203.0.113.9']);
    await reloadUntil('ipDenied');
    expect(await indicator().textContent()).toContain('地址未获允许');
    expect(await banner().textContent()).toContain('加入白名单');
    await photograph('ip-denied', ['Address not allowed', 'allow-list']);
    await control.setIpAllowList(userId, null);
    await backOnline();
  });

  it('the key rotated: keyRefused, replace the key in Settings; online with the new key', async () => {
    const { apiKey } = await control.rotateKey(userId);
    await reloadUntil('keyRefused');
    expect(await indicator().textContent()).toContain('密钥被拒');
    expect(await banner().textContent()).toContain('请向商户索取新密钥');
    await photograph('key-refused', ['Key refused', 'Replace the key']);
    await banner().getByTestId('status-banner-settings').click();
    await page.getByTestId('settings-new-key').fill(apiKey);
    await page.getByTestId('settings-new-key-save').click();
    await expect.poll(() => indicator().getAttribute('data-state'), { timeout: MERCHANT_WAIT_MS }).toBe('online');
    expect(await banner().count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
