// Reconciliation as a buyer does it in the real UI (built renderer, Debian Chromium, web host with its
// demo merchant): two card orders bought through the app, then behind its back the merchant changes
// one order's state and another's units, and an order is placed with the same account in the merchant's
// own shop. The buyer opens 对账, picks the days and reconciles: each difference is listed with its
// action. Refreshing fixes the state, recording the foreign order takes it off the list, after-sales
// opens prefilled for the card the merchant never delivered; the report downloads as CSV and XLSX with
// no card secret in it. Pictures of the screen in zh-CN and English, light and dark, go to docs/screens.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../core/export/file-readers';
import { controlHeaders } from '../support/control-auth';
import { buyCardOrder, closeOverlays } from './support/app-steps';
import { openApp } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { untranslatedOn } from './support/visible-text';

const DOCS_SCREENS = join(process.cwd(), 'docs', 'screens');
let session: DemoSession;
let page: Page;
let downloadsDir: string;
const secrets: string[] = [];

interface WireOrder {
  clientOrderRef: string;
  card_list: { card_no: string; card_password: string }[] | null;
}

const day = (offset: number): string => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

async function controlPost<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${session.host.controlUrl}${path}`, { method: 'POST', headers: controlHeaders(session.host.controlToken, 'POST'), body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Keeps the card codes the merchant answered, to prove the report never holds one. */
const remember = (order: WireOrder): WireOrder => {
  for (const card of order.card_list ?? []) secrets.push(card.card_no, card.card_password);
  return order;
};

async function photograph(target: Page, name: string): Promise<void> {
  mkdirSync(DOCS_SCREENS, { recursive: true });
  // The order notices of the purchases (they close by themselves) would cover the table in the picture.
  await target.addStyleTag({ content: '.ant-notification { display: none !important; }' });
  // The frame scrolls inside a fixed viewport: tall enough for the whole report.
  await target.setViewportSize({ width: 1440, height: 1200 });
  await target.waitForTimeout(400);
  await target.screenshot({ path: join(DOCS_SCREENS, `${name}.png`), fullPage: true });
}

async function openReconcile(target: Page): Promise<void> {
  await closeOverlays(target);
  await target.getByTestId('nav-reconcile').click();
  await target.getByTestId('reconcile-screen').waitFor();
}

const row = (target: Page, kind: string, ref: string) => target.locator(`[data-testid="reconcile-row"][data-kind="${kind}"][data-ref="${ref}"]`);

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
  downloadsDir = mkdtempSync(join(tmpdir(), 'procure-e2e-reconcile-'));
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('reconcile', context.task.name);
});

afterAll(async () => {
  await session?.stop();
  if (downloadsDir !== undefined) rmSync(downloadsDir, { recursive: true, force: true });
});

describe('reconciliation as a buyer', () => {
  let stateRef = '';
  let unitsRef = '';
  let foreignRef = '';

  it('lists each difference the merchant has behind the app’s back, with its action', async () => {
    const first = await buyCardOrder(page, session.products, 1, []);
    await closeOverlays(page);
    const second = await buyCardOrder(page, session.products, 2, [first.productRef]);
    await closeOverlays(page);
    stateRef = first.ref;
    unitsRef = second.ref;
    remember(await controlPost<WireOrder>(`/control/orders/${stateRef}/tamper`, { state: 'failed' }));
    remember(await controlPost<WireOrder>(`/control/orders/${unitsRef}/tamper`, { units: 3 }));
    foreignRef = `SHOP-${Date.now()}`;
    await controlPost(`/control/accounts/${session.userId}/orders`, { clientOrderRef: foreignRef, productRef: first.productRef, units: 1 });

    await openReconcile(page);
    // Yesterday by default, in the buyer's time zone.
    expect(await page.getByTestId('reconcile-from').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.getByTestId('reconcile-from').fill(day(-1));
    await page.getByTestId('reconcile-to').fill(day(0));
    await page.getByTestId('reconcile-run').click();
    const report = page.getByTestId('reconcile-report');
    await page.getByTestId('reconcile-found').waitFor({ timeout: 60_000 });
    await row(page, 'foreign', foreignRef).waitFor();
    await row(page, 'mismatch', stateRef).waitFor();
    await row(page, 'mismatch', unitsRef).waitFor();
    await row(page, 'cards', unitsRef).waitFor();
    expect(Number(await report.getAttribute('data-differences'))).toBe(4);
    expect(await row(page, 'foreign', foreignRef).getByTestId('reconcile-record-foreign').count()).toBe(1);
    expect(await row(page, 'mismatch', stateRef).getByTestId('reconcile-refresh').count()).toBe(1);
    expect(await row(page, 'cards', unitsRef).getByTestId('reconcile-open-case').count()).toBe(1);
    // Nothing was read before yesterday began, but the connect's reading came before any money moved:
    // it opens the check (with its time); the foreign order is what the balance cannot explain yet.
    expect(await page.getByTestId('reconcile-balance-start').getAttribute('data-known')).toBe('true');
    expect(await page.getByTestId('reconcile-balance-end').getAttribute('data-known')).toBe('true');
    expect(await page.getByTestId('reconcile-headline').getAttribute('data-balance')).toBe('differs');
    expect(await untranslatedOn(page)).toEqual([]);
    await photograph(page, 'reconcile-zh-light');
  }, 300_000);

  it('looks right in English and Chinese, light and dark', async () => {
    for (const [locale, scheme, name] of [
      ['en-US', 'light', 'reconcile-en-light'],
      ['en-US', 'dark', 'reconcile-en-dark'],
      ['zh-CN', 'dark', 'reconcile-zh-dark'],
    ] as const) {
      const opened = await openApp(session.browser, await session.host.newLaunchUrl(), locale, { colorScheme: scheme });
      await openReconcile(opened.page);
      await opened.page.getByTestId('reconcile-found').waitFor();
      await row(opened.page, 'foreign', foreignRef).waitFor();
      if (locale === 'zh-CN') expect(await untranslatedOn(opened.page)).toEqual([]);
      await photograph(opened.page, name);
      expect(opened.problems).toEqual([]);
      await opened.context.close();
    }
  }, 120_000);

  it('refreshes, records the foreign order, and opens after-sales prefilled', async () => {
    await row(page, 'mismatch', stateRef).getByTestId('reconcile-refresh').click();
    await expect.poll(() => row(page, 'mismatch', stateRef).count(), { timeout: 30_000 }).toBe(0);
    await row(page, 'foreign', foreignRef).getByTestId('reconcile-record-foreign').click();
    await expect.poll(() => row(page, 'foreign', foreignRef).count(), { timeout: 30_000 }).toBe(0);

    await row(page, 'cards', unitsRef).getByTestId('reconcile-open-case').click();
    const form = page.getByTestId('case-form');
    await form.waitFor();
    // Prefilled: cards not received, and how many of how many.
    expect(await form.getByTestId('case-description-input').inputValue()).toContain('3');
    await page.getByTestId('case-submit').click();
    await page.getByTestId('case-chat').waitFor({ timeout: 30_000 });
    await closeOverlays(page);
    expect(session.problems).toEqual([]);
  }, 120_000);

  it('downloads the report as CSV and XLSX, with no card secret in either', async () => {
    await openReconcile(page);
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const format of ['csv', 'xlsx'] as const) {
      const download = page.waitForEvent('download', { timeout: 30_000 });
      await page.getByTestId('reconcile-export').hover();
      await page.getByTestId(`reconcile-export-${format}`).click();
      const file = await download;
      const path = join(downloadsDir, file.suggestedFilename());
      await file.saveAs(path);
      expect(path.endsWith(`.${format}`)).toBe(true);
      const text = format === 'csv' ? readFileSync(path, 'utf8') : JSON.stringify(readXlsx(readFileSync(path)));
      expect(text).toContain(unitsRef);
      // The client ref a code cell in the CSV (contract §16.1): quoted, one TAB after it, kept whole by a spreadsheet.
      if (format === 'csv') expect(text).toContain(`"${unitsRef}\t"`);
      for (const secret of secrets) expect(text.includes(secret), 'a card secret in the report').toBe(false);
    }
  }, 120_000);
});
