// The merchant's address typed as the README says (issue 26): the domain alone, no https://, no path.
// In zh-CN the form names garbage and plain http as before, takes `127.0.0.1:PORT` of a real sandbox
// (its CA trusted as a buyer's system store, as in connect-form.e2e.test.ts), connects and shows the
// account's balance; light and dark photographed with the hint that says the domain is enough.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let caDir: string;
let merchant: RunningSandbox;
let host: RunningWebHost;
let browser: Browser;

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'procure-e2e-ca-'));
  merchant = await startSandbox(['--ca-dir', caDir]);
  host = await startWebHost({ env: { NODE_EXTRA_CA_CERTS: merchant.caCertFile } });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await merchant?.stop();
  if (caDir !== undefined) rmSync(caDir, { recursive: true, force: true });
});

describe('the merchant address typed as a bare domain', () => {
  it('dark, before connecting: the hint and a bare domain accepted', async () => {
    const { page } = await openApp(browser, host.url, 'zh-CN', { colorScheme: 'dark' });
    await page.getByTestId('connect-screen').waitFor();
    await page.getByTestId('connect-base-url').fill('api.example-merchant.cn');
    await page.getByTestId('connect-base-url').blur();
    await expect.poll(() => page.locator('#baseUrl_help .ant-form-item-explain-error').count()).toBe(0);
    await screenshot(page, 'connect-bare-domain-zh-dark');
    await page.close();
  });

  it('is refused when it is garbage or plain http, and connects as host:port without https://', async () => {
    const { page, problems } = await openApp(browser, await host.newLaunchUrl(), 'zh-CN');
    await page.getByTestId('connect-screen').waitFor();
    const address = page.getByTestId('connect-base-url');
    const addressError = page.locator('#baseUrl_help .ant-form-item-explain-error');

    await address.fill('不是 网址');
    await address.blur();
    await expect.poll(() => addressError.textContent()).toContain('这不是一个网址');
    await address.fill('http://api.example-merchant.cn');
    await expect.poll(() => addressError.textContent()).toContain('https');
    await address.fill('api.example-merchant.cn');
    await expect.poll(() => addressError.count()).toBe(0);
    expect(await page.getByText('填写商户的域名即可').count()).toBe(1);

    const account = await sandboxControl(merchant.controlUrl, merchant.controlToken).createAccount('88.80');
    const bare = new URL(merchant.baseUrl).host;
    expect(bare).toMatch(/^127\.0\.0\.1:\d+$/);
    await address.fill(bare);
    await page.getByTestId('connect-user-id').fill(account.userId);
    await page.getByTestId('connect-api-key').fill(account.apiKey);
    await screenshot(page, 'connect-bare-domain-zh-light');
    await page.getByTestId('connect-submit').click();
    await page.getByTestId('connect-success').waitFor();
    await expect.poll(() => page.getByTestId('account-balance').textContent()).toMatch(/88\.80/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
