// A new buyer connecting through the form, in Chinese, against merchants that fail in every way the
// connect test can: each failure is named in words with what to do (never "offline, orders are
// queued": nothing was connected yet), and each cost exactly one attempt (counted by the test
// servers). The form's advanced section trusts a private CA (a sandbox whose CA the host does not
// trust fails named, then connects with its CA file); Settings shows the CA in use and refuses to
// drop or swap it for one that does not connect; "connect to another merchant" confirms and can be
// cancelled with nothing changed. Screenshots: the form with a failure and the advanced section.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import {
  closedPortUrl,
  createCertificateAuthority,
  expiredCertificate,
  HTML_404_REPLY,
  localCertificate,
  otherHostCertificate,
  startHttpServer,
  startHttpsServer,
  UNRESOLVABLE_URL,
  type CaMaterial,
  type TestServer,
} from '../support/connect-test-servers';
import { goTo, MERCHANT_WAIT_MS } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl, type SandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let caDir: string;
let fileDir: string;
let merchant: RunningSandbox;
let control: SandboxControl;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let testCa: CaMaterial;
const servers: TestServer[] = [];

/** Words of the offline banner that must never appear on the connect screen. */
const OFFLINE_WORDS = ['离线', '订单会排队', '排队', 'Offline', 'queued'];
const FAKE_KEY = `AK_${'0123456789abcdef'.repeat(2)}`;

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'procure-e2e-private-ca-'));
  fileDir = mkdtempSync(join(tmpdir(), 'procure-e2e-ca-files-'));
  // The host trusts only the system's authorities: this sandbox's CA is a private one.
  merchant = await startSandbox(['--ca-dir', caDir]);
  control = sandboxControl(merchant.controlUrl, merchant.controlToken);
  host = await startWebHost();
  browser = await launchChromium();
  testCa = await createCertificateAuthority();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterAll(async () => {
  for (const server of servers) await server.close();
  await browser?.close();
  await host?.stop();
  await merchant?.stop();
  for (const dir of [caDir, fileDir]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function serve(start: Promise<TestServer>): Promise<TestServer> {
  const server = await start;
  servers.push(server);
  return server;
}

async function fill(baseUrl: string, userId: string, apiKey: string): Promise<void> {
  await page.getByTestId('connect-base-url').fill(baseUrl);
  await page.getByTestId('connect-user-id').fill(userId);
  await page.getByTestId('connect-api-key').fill(apiKey);
}

async function openAdvanced(): Promise<void> {
  if (!(await page.getByTestId('connect-ca-cert').isVisible())) await page.getByTestId('connect-advanced').click();
  await page.getByTestId('connect-ca-cert').waitFor();
}

async function setCaText(pem: string): Promise<void> {
  await openAdvanced();
  await page.getByTestId('connect-ca-cert').fill(pem);
}

/** Submits and waits for this failure; answers the alert's text. */
async function submitFails(kind: string): Promise<string> {
  await page.getByTestId('connect-submit').click();
  const alert = page.locator(`[data-testid="connect-error"][data-failure="${kind}"]`);
  await alert.waitFor();
  const text = (await alert.textContent()) ?? '';
  const screen = (await page.getByTestId('connect-screen').textContent()) ?? '';
  for (const word of OFFLINE_WORDS) expect(screen, `${kind}: "${word}" on the connect screen`).not.toContain(word);
  return text;
}

describe('connect failures on the form, in Chinese, each named after one attempt', () => {
  it('names a closed port, an unknown host, an untrusted, foreign or expired certificate, a web page, a silent merchant and http://', async () => {
    await page.getByTestId('connect-screen').waitFor();

    await fill(await closedPortUrl(), '170001', FAKE_KEY);
    expect(await submitFails('refused')).toContain('该地址没有服务应答');

    await fill(UNRESOLVABLE_URL, '170001', FAKE_KEY);
    expect(await submitFails('dns')).toContain('找不到商户的地址');

    const untrusted = await serve(startHttpsServer(await localCertificate(await createCertificateAuthority())));
    await fill(untrusted.baseUrl, '170001', FAKE_KEY);
    expect(await submitFails('tlsUntrusted')).toContain('商户的证书不受信任');
    expect([untrusted.connections, untrusted.requests]).toEqual([1, 0]);

    // The next three are signed by a CA given in the advanced section: only their own fault is left.
    await setCaText(testCa.certPem);
    const foreign = await serve(startHttpsServer(await otherHostCertificate(testCa)));
    await fill(foreign.baseUrl, '170001', FAKE_KEY);
    expect(await submitFails('tlsHostname')).toContain('证书属于另一个地址');
    expect([foreign.connections, foreign.requests]).toEqual([1, 0]);

    const expired = await serve(startHttpsServer(await expiredCertificate(testCa)));
    await fill(expired.baseUrl, '170001', FAKE_KEY);
    expect(await submitFails('tlsExpired')).toContain('商户的证书已过期');
    expect([expired.connections, expired.requests]).toEqual([1, 0]);

    const webPage = await serve(startHttpsServer(await localCertificate(testCa), HTML_404_REPLY));
    await fill(webPage.baseUrl, '170001', FAKE_KEY);
    expect(await submitFails('notOpenApi')).toContain('这不是商户开放接口的地址');
    expect(webPage.requests).toBe(1);

    const silent = await serve(startHttpsServer(await localCertificate(testCa), { status: 200, body: '', hang: true }));
    await fill(silent.baseUrl, '170001', FAKE_KEY);
    expect(await submitFails('timeout')).toContain('商户没有及时应答');
    expect(silent.requests).toBe(1);
    await page.getByTestId('connect-ca-cert-clear').click();

    // http:// is refused by the form itself: nothing reaches the server, the reason is said.
    const plain = await serve(startHttpServer());
    await fill(plain.baseUrl, '170001', FAKE_KEY);
    await page.getByTestId('connect-submit').click();
    await expect.poll(() => page.locator('.ant-form-item-explain-error').allTextContents()).toContainEqual(expect.stringContaining('绝不通过明文 http 发送 API 密钥'));
    expect(plain.connections).toBe(0);
    expect(problems).toEqual([]);
  });

  it('a private CA: fails named without it, connects with its file; the merchant refusing the key or this address is named', async () => {
    const account = await control.createAccount('321.00');
    await fill(merchant.baseUrl, account.userId, account.apiKey);
    await page.getByTestId('connect-submit').click();
    await page.locator('[data-testid="connect-error"][data-failure="tlsUntrusted"]').waitFor();
    await openAdvanced();
    for (const language of ['zh', 'en'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `connect-failure-advanced-${language}-${scheme}`);
      }
      if (language === 'zh') await page.getByTestId('language-switch').click();
    }
    await expect.poll(() => page.getByTestId('connect-error').textContent()).toContain('certificate is not trusted');
    await page.getByTestId('language-switch').click();
    await page.emulateMedia({ colorScheme: 'light' });

    // Not a certificate: the form says so before sending.
    const keyFile = join(fileDir, 'not-a-ca.pem');
    writeFileSync(keyFile, testCa.keyPem);
    await page.getByTestId('connect-ca-cert-file').setInputFiles(keyFile);
    await page.getByTestId('connect-submit').click();
    await expect.poll(() => page.locator('.ant-form-item-explain-error').allTextContents()).toContainEqual(expect.stringContaining('这不是 PEM 格式的证书'));

    // The CA file: read in the page, one certificate, trusted for this merchant only.
    await page.getByTestId('connect-ca-cert-file').setInputFiles(merchant.caCertFile);
    await expect.poll(() => page.getByTestId('connect-ca-cert-ready').textContent()).toContain('1 个证书');

    // The merchant refuses this computer's address, then the key: each named, the CA now trusted.
    await control.setIpAllowList(account.userId, ['192.0.2.1']);
    expect(await submitFails('ipDenied')).toContain('这台电脑的地址不在允许范围内');
    await control.setIpAllowList(account.userId, null);
    await page.getByTestId('connect-api-key').fill(FAKE_KEY);
    expect(await submitFails('keyInvalid')).toContain('用户 ID 或 API 密钥未被接受');

    await page.getByTestId('connect-api-key').fill(account.apiKey);
    await page.getByTestId('connect-submit').click();
    await page.getByTestId('connect-success').waitFor();
    await expect.poll(() => page.getByTestId('account-balance').textContent()).toMatch(/321\.00/);
    await page.getByTestId('connect-continue').click();
    await page.getByTestId('catalog-screen').waitFor();
    expect(await page.content()).not.toContain(account.apiKey);
    expect(problems).toEqual([]);
  });

  it('Settings shows the CA in use and keeps it when removing or replacing it would not connect', async () => {
    await goTo(page, 'settings');
    const inUse = page.locator('[data-testid="settings-ca-cert"][data-in-use="true"]');
    await inUse.waitFor();
    expect(await inUse.textContent()).toContain('Procure Desk Sandbox CA');

    await page.getByTestId('settings-ca-cert-remove').click();
    await page.getByTestId('settings-ca-cert-remove-confirm').click();
    const refused = page.locator('[data-testid="settings-ca-cert-error"][data-failure="tlsUntrusted"]');
    // A connect test against the merchant decides it: as long as any merchant answer may take under load.
    await refused.waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await refused.textContent()).toContain('当前使用的 CA 保持不变');
    await inUse.waitFor();

    await page.getByTestId('settings-ca-cert-edit').click();
    await page.getByTestId('settings-ca-cert-input').fill(testCa.certPem);
    await page.getByTestId('settings-ca-cert-save').click();
    await page.locator('.ant-modal [data-testid="settings-ca-cert-error"][data-failure="tlsUntrusted"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    await screenshot(page, 'settings-ca-cert-replace-refused-zh-light');
    await page.getByTestId('settings-ca-cert-cancel').click();
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
    expect(await inUse.textContent()).toContain('Procure Desk Sandbox CA');

    // The same CA again connects and is kept.
    await page.getByTestId('settings-ca-cert-edit').click();
    await page.getByTestId('settings-ca-cert-input').fill(merchant.ca);
    await page.getByTestId('settings-ca-cert-save').click();
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
    await inUse.waitFor();
    await screenshot(page, 'settings-ca-cert-zh-light');
    expect(problems).toEqual([]);
  });

  it('"connect to another merchant" asks first, prefills the address, and Cancel goes back with nothing changed', async () => {
    const userId = await page.getByTestId('settings-user-id').textContent();
    await page.getByTestId('settings-reconnect').click();
    await page.getByTestId('settings-reconnect-confirm').waitFor();
    expect(await page.locator('.ant-popover').last().textContent()).toContain('目录和关注的商品会被清除');
    await screenshot(page, 'settings-reconnect-confirm-zh-light');
    await page.getByTestId('settings-reconnect-cancel').click();
    await page.getByTestId('settings-reconnect-confirm').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('connect-screen').count()).toBe(0);

    await page.getByTestId('settings-reconnect').click();
    await page.getByTestId('settings-reconnect-confirm').click();
    await page.getByTestId('connect-screen').waitFor();
    expect(await page.getByTestId('connect-base-url').inputValue()).toBe(merchant.baseUrl);
    // A failed try at another address changes nothing either, and says nothing about "offline".
    await fill(UNRESOLVABLE_URL, '170002', FAKE_KEY);
    await submitFails('dns');
    await screenshot(page, 'connect-another-zh-light');
    await page.getByTestId('connect-cancel').click();
    await page.getByTestId('settings-connection').waitFor();
    expect(await page.getByTestId('settings-user-id').textContent()).toBe(userId);
    await page.locator('[data-testid="settings-ca-cert"][data-in-use="true"]').waitFor();
    expect(await page.getByTestId('online-indicator').getAttribute('data-online')).toBe('true');
    expect(problems).toEqual([]);
  });

  it('switching to a suspended account: it connects (GET /account answers it) and the buyer is told it is suspended', async () => {
    const suspended = await control.createAccount('5.00');
    await control.setSuspended(suspended.userId, true);
    await page.getByTestId('settings-reconnect').click();
    await page.getByTestId('settings-reconnect-confirm').click();
    await page.getByTestId('connect-screen').waitFor();
    await fill(merchant.baseUrl, suspended.userId, suspended.apiKey);
    // The CA in the advanced section is the form's own: this merchant's CA is given again.
    await setCaText(merchant.ca);
    await page.getByTestId('connect-submit').click();
    await page.getByTestId('connect-success').waitFor();
    expect(await page.getByTestId('connect-suspended').textContent()).toContain('商户已停用这个账户');
    await screenshot(page, 'connect-suspended-zh-light');
    await page.getByTestId('connect-continue').click();
    await page.getByTestId('catalog-screen').waitFor();
    expect(problems).toEqual([]);
  });
});
