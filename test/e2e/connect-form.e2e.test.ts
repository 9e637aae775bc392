// A new buyer connects through the form (merchant address, user ID, API key,
// tested at once). The account is a fresh one from a sandbox's control API. The web host's own demo
// merchant cannot be reached through the form here: its CA is made at start-up in a temporary folder
// and never trusted by the host, so the form's merchant is a second sandbox whose CA folder exists
// before the host starts and is trusted through NODE_EXTRA_CA_CERTS (as a buyer's system CA store).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { ensureCatalog } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let caDir: string;
let merchant: RunningSandbox;
let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  caDir = mkdtempSync(join(tmpdir(), 'procure-e2e-ca-'));
  merchant = await startSandbox(['--ca-dir', caDir]);
  host = await startWebHost({ env: { NODE_EXTRA_CA_CERTS: merchant.caCertFile } });
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'en-US'));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await merchant?.stop();
  if (caDir !== undefined) rmSync(caDir, { recursive: true, force: true });
});

describe('a new buyer connecting through the form', () => {
  it('is told what is wrong with a bad key, then connects with a fresh account and sees its balance', async () => {
    const account = await sandboxControl(merchant.controlUrl, merchant.controlToken).createAccount('1234.56');
    await page.getByTestId('connect-screen').waitFor();
    // The system language (en-US) decides the first language.
    expect(await page.getByTestId('connect-submit').textContent()).toContain('Connect');
    await page.getByTestId('connect-base-url').fill(merchant.baseUrl);
    await page.getByTestId('connect-user-id').fill(account.userId);
    await page.getByTestId('connect-api-key').fill('AK_wrong_key_for_this_account_000000');
    await page.getByTestId('connect-submit').click();
    await page.getByTestId('connect-error').waitFor();
    await screenshot(page, '00-connect-form-error');

    await page.getByTestId('connect-api-key').fill(account.apiKey);
    await page.getByTestId('connect-submit').click();
    await page.getByTestId('connect-success').waitFor();
    await expect.poll(() => page.getByTestId('account-balance').textContent()).toMatch(/1,234\.56/);
    await screenshot(page, '00-connect-form-success');
    await page.getByTestId('connect-continue').click();
    await ensureCatalog(page);
    // The key is write-only: it is nowhere in the page.
    expect(await page.content()).not.toContain(account.apiKey);
    expect(problems).toEqual([]);
  });
});
