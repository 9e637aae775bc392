// The secure export in the real UI (built renderer, Debian Chromium) through the
// web host and its demo merchant. The buyer buys card codes, works in the vault (filters, selection,
// reveal), exports the selected cards as a password-protected XLSX and everything not yet exported as
// an encrypted ZIP through the export dialog, reads the audit log, then exports a plain TXT of
// "卡号 卡密" lines for a shop import behind the plain-text warning. The web host hands each file
// to the browser as a one-time download (nothing stays in its export folder); the test takes the
// download Chromium saved and opens it with msoffcrypto-tool and 7-Zip, comparing it with the codes
// the vault reveals.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MSOFFCRYPTO, parseCsv, readXlsx, run, SEVEN_ZIP } from '../core/export/file-readers';
import { buyCardOrder, closeOverlays, connectDemoToCatalog, goTo, openExportDialog, revealCard, selectCards, submitExportDialog, typeExportPasswords } from './support/app-steps';
import { launchChromium, openApp, screenshot } from './support/browser';
import { sandboxControl, type ControlProduct } from './support/sandbox-control';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;
let page: Page;
let problems: string[];
let products: ControlProduct[];
/** Where the test keeps the files Chromium downloaded (the buyer's disk). */
let downloadsDir: string;
const PASSWORD = 'Plum-风筝-7731';
/** The orders bought, and the codes the vault revealed for each card ("ref#seq"). */
const orderRefs: string[] = [];
const revealed = new Map<string, { cardNo: string; password: string }>();

beforeAll(async () => {
  host = await startWebHost();
  downloadsDir = mkdtempSync(join(tmpdir(), 'procure-e2e-downloads-'));
  products = await sandboxControl(host.controlUrl, host.controlToken).products(500);
  browser = await launchChromium();
  ({ page, problems } = await openApp(browser, host.url, 'zh-CN'));
}, 90_000);

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  await screenshot(page, `export-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  // What the web host and its core said, for whoever reads the failure.
  mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
  writeFileSync(join(process.cwd(), 'test-results', 'export-web-host.log'), host.stderr());
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  if (downloadsDir !== undefined) rmSync(downloadsDir, { recursive: true, force: true });
});

async function buyCards(units: number, exclude: readonly number[]): Promise<string> {
  const { ref, productRef } = await buyCardOrder(page, products, units, exclude);
  await closeOverlays(page);
  orderRefs.push(ref);
  return String(productRef);
}

const rowsOf = (ref: string): Locator => page.locator(`[data-testid="vault-card"][data-ref="${ref}"]`);

/** Reveals each card of the order in the vault (audited) and remembers its codes. */
async function revealAll(ref: string): Promise<void> {
  const rows = rowsOf(ref);
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const seq = (await row.getAttribute('data-seq')) ?? '';
    const { cardNo, password } = await revealCard(row);
    revealed.set(`${ref}#${seq}`, { cardNo, password });
  }
}

/**
 * Submits the dialog and answers where the browser's download was saved: the dialog says Downloaded
 * with the file's name, and the host's export folder holds nothing afterwards.
 */
async function submitExport(dialog: Locator): Promise<string> {
  const download = page.waitForEvent('download', { timeout: 30_000 });
  const outcome = await submitExportDialog(dialog);
  const file = await download;
  expect(await outcome.getAttribute('data-delivery')).toBe('download');
  const name = ((await dialog.getByTestId('export-result-file').textContent()) ?? '').trim();
  expect(file.suggestedFilename()).toBe(name);
  const path = join(downloadsDir, name);
  await file.saveAs(path);
  expect(await file.failure()).toBeNull();
  // Served once from memory: the staging folder is gone from the host the moment the bytes left.
  await expect.poll(() => readdirSync(join(host.dataDir, 'exports'))).toEqual([]);
  return path;
}

describe('secure export of card codes', () => {
  let firstProduct = 0;

  it('buys three card codes from the demo merchant', async () => {
    await connectDemoToCatalog(page);
    firstProduct = Number(await buyCards(3, []));
  }, 180_000);

  it('buys one more card code of another product', async () => {
    await buyCards(1, [firstProduct]);
    expect(orderRefs).toHaveLength(2);
  }, 180_000);

  it('shows every card in the vault, masked, filterable, and reveals them on demand', async () => {
    await goTo(page, 'vault');
    const screen = page.getByTestId('vault-screen');
    await expect.poll(() => screen.getByTestId('vault-card').count()).toBe(4);
    await expect.poll(() => screen.getByTestId('vault-total').textContent()).toContain('4');
    for (const masked of await screen.getByTestId('vault-card-masked').allTextContents()) expect(masked).toMatch(/^•+\d{4}$/);
    for (const ref of orderRefs) await revealAll(ref);
    expect(revealed.size).toBe(4);
    // "Not exported yet" and "used" filters narrow the list; every card is both unexported and unused.
    await screen.getByTestId('vault-not-exported').click();
    await expect.poll(() => screen.getByTestId('vault-card').count()).toBe(4);
    await screen.getByTestId('vault-not-exported').click();
    await screenshot(page, 'export-01-vault');
  });

  it('exports the selected cards as a password-protected XLSX that opens with the password only', async () => {
    const [first = ''] = orderRefs;
    await selectCards(page, rowsOf(first));
    const dialog = await openExportDialog(page, 3);
    // Weak and mismatched passwords are explained, and the dialog will not send them.
    await typeExportPasswords(dialog, 'password1', 'password1');
    await expect.poll(() => dialog.getByTestId('export-strength').getAttribute('data-ok')).toBe('false');
    expect(await dialog.getByTestId('export-password-reason').textContent()).toContain('10');
    expect(await dialog.getByTestId('export-submit').isDisabled()).toBe(true);
    await typeExportPasswords(dialog, PASSWORD, `${PASSWORD}x`);
    await dialog.getByTestId('export-password-mismatch').waitFor();
    expect(await dialog.getByTestId('export-submit').isDisabled()).toBe(true);
    await typeExportPasswords(dialog, PASSWORD, PASSWORD);
    await expect.poll(() => dialog.getByTestId('export-strength').getAttribute('data-ok')).toBe('true');
    await screenshot(page, 'export-02-dialog-xlsx');
    const path = await submitExport(dialog);
    expect(path).toMatch(/\.xlsx$/);
    await screenshot(page, 'export-03-downloaded-zh-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'export-03-downloaded-zh-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    expect(run(MSOFFCRYPTO, ['--test', path]).status).toBe(0);
    expect(run(MSOFFCRYPTO, ['-p', 'not-the-Password-9', path, `${path}.wrong`]).status).not.toBe(0);
    const out = `${path}.plain.xlsx`;
    expect(run(MSOFFCRYPTO, ['-p', PASSWORD, path, out]).status).toBe(0);
    const book = readXlsx(readFileSync(out));
    rmSync(out);
    rmSync(`${path}.wrong`, { force: true });
    expect(book.rows[0]?.map((c) => c?.text)).toEqual(['商品', '规格', '订单号', '卡号', '卡密', '有效期至', '下单时间', '单价（元）', '退款状态', '内部编号']);
    // The order column holds the merchant's order number (digits); the internal ref is the last, support column.
    for (const row of book.rows.slice(1)) expect(row[2]?.text).toMatch(/^\d+$/);
    const body = book.rows.slice(1).map((row) => ({ ref: row[9]?.text, cardNo: row[3]?.text, password: row[4]?.text }));
    expect(body).toHaveLength(3);
    for (const [seq, row] of body.entries()) expect(row).toEqual({ ref: first, ...revealed.get(`${first}#${seq}`) });

    await dialog.getByTestId('export-close').click();
    await expect.poll(() => rowsOf(first).getByTestId('vault-card-exported').count()).toBe(3);
  });

  it('exports everything not yet exported as an AES-256 ZIP that 7-Zip opens', async () => {
    const [, second = ''] = orderRefs;
    // The selection from before is cleared by hand, then "not exported yet" is chosen in the dialog.
    const firstRows = rowsOf(orderRefs[0] ?? '');
    for (let i = 0; i < (await firstRows.count()); i++) await firstRows.nth(i).locator('.ant-checkbox').first().click();
    // This one in English, to look at the outcome in both languages.
    await page.getByTestId('language-switch').click();
    await page.getByTestId('vault-export').click();
    const dialog = page.getByTestId('export-dialog');
    await dialog.getByTestId('export-what-notExported').click();
    await expect.poll(() => dialog.getByTestId('export-preview').getAttribute('data-count')).toBe('1');
    await dialog.getByTestId('export-format-zip').click();
    await typeExportPasswords(dialog, PASSWORD, PASSWORD);
    const path = await submitExport(dialog);
    expect(path).toMatch(/\.zip$/);
    expect(await dialog.getByTestId('export-result').textContent()).toContain('Downloaded 1 card');
    await screenshot(page, 'export-05-downloaded-en-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'export-05-downloaded-en-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    expect(run(SEVEN_ZIP, ['t', `-p${PASSWORD}`, path]).status).toBe(0);
    expect(run(SEVEN_ZIP, ['t', '-pWrong-Password-1', path]).status).not.toBe(0);
    const listing = run(SEVEN_ZIP, ['l', '-slt', `-p${PASSWORD}`, path]).stdout.toString();
    expect(listing).toContain('Method = AES-256');
    const entry = /Path = (.*\.csv)/.exec(listing)?.[1] ?? '';
    const csv = run(SEVEN_ZIP, ['x', `-p${PASSWORD}`, '-so', path, entry]).stdout;
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(csv.subarray(3).toString('utf8'));
    // Exported while the app was in English: the file's headers follow the buyer's language.
    expect(records[0]?.[3]).toBe('Card number');
    // Every code cell ends with the one TAB that keeps it text in a spreadsheet (contract §16.1).
    const code = (cell: string | undefined): string => (cell?.endsWith('\t') === true ? cell.slice(0, -1) : `${cell ?? ''} (no TAB)`);
    expect(records.slice(1).map((r) => ({ ref: code(r[9]), cardNo: code(r[3]), password: code(r[4]) }))).toEqual([{ ref: second, ...revealed.get(`${second}#0`) }]);
    await dialog.getByTestId('export-close').click();
    await page.getByTestId('language-switch').click();
    await expect.poll(() => page.getByTestId('vault-card-exported').count()).toBe(4);
  });

  it('reads when, what, how many and which format in the audit log, never a code', async () => {
    await closeOverlays(page);
    await page.getByTestId('nav-audit').click();
    const screen = page.getByTestId('audit-screen');
    await expect.poll(() => screen.locator('[data-testid="audit-row"][data-action="export"]').count()).toBe(2);
    expect(await screen.locator('[data-testid="audit-row"][data-action="reveal"]').count()).toBeGreaterThanOrEqual(4);
    const newest = screen.getByTestId('audit-row').first();
    expect(await newest.getAttribute('data-action')).toBe('export');
    const newestText = (await newest.textContent()) ?? '';
    expect(newestText).toContain('尚未导出的卡密');
    expect(newestText).toContain('zip');
    await screen.getByTestId('audit-filter').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '导出' }).click();
    await expect.poll(() => screen.getByTestId('audit-row').count()).toBe(2);
    const text = (await screen.textContent()) ?? '';
    expect(text).toContain('xlsx');
    for (const { cardNo, password } of revealed.values()) {
      expect(text.includes(cardNo)).toBe(false);
      expect(text.includes(password)).toBe(false);
    }
    expect(text.includes(PASSWORD)).toBe(false);
    await screenshot(page, 'export-04-audit-log');
    expect(problems).toEqual([]);
  });

  it('exports a plain TXT of "卡号 卡密" lines for a shop import, behind the plain-text warning, audited', async () => {
    const [first = ''] = orderRefs;
    await closeOverlays(page);
    await goTo(page, 'vault');
    const rows = rowsOf(first);
    await expect.poll(() => rows.count()).toBe(3);
    await selectCards(page, rows);
    const chooseTxt = async (): Promise<Locator> => {
      const dialog = await openExportDialog(page, 3);
      await dialog.getByTestId('export-format-txt').click();
      await dialog.getByTestId('export-txt-lines-cardNoPassword').click();
      // Plain text: no password fields, the same warning as the CSV, and nothing sent before it is accepted.
      expect(await dialog.getByTestId('export-password').count()).toBe(0);
      expect(await dialog.getByTestId('export-submit').isDisabled()).toBe(true);
      // The picture shows the lines, the warning and its box.
      await dialog.getByTestId('export-submit').scrollIntoViewIfNeeded();
      return dialog;
    };
    let dialog = await chooseTxt();
    expect(await dialog.textContent()).toContain('每行内容');
    await screenshot(page, 'export-06-dialog-txt-zh-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'export-06-dialog-txt-zh-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByTestId('export-cancel').click();
    await page.getByTestId('language-switch').click();
    dialog = await chooseTxt();
    expect(await dialog.textContent()).toContain('Each line holds');
    await screenshot(page, 'export-06-dialog-txt-en-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'export-06-dialog-txt-en-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByTestId('export-accept-plain').click();
    const path = await submitExport(dialog);
    expect(path).toMatch(/\.txt$/);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    const lines = [0, 1, 2].map((seq) => revealed.get(`${first}#${seq}`)).map((card) => (card?.password ? `${card.cardNo} ${card.password}` : (card?.cardNo ?? '')));
    expect(bytes.toString('utf8')).toBe(lines.map((line) => `${line}\n`).join(''));
    await dialog.getByTestId('export-close').click();

    await closeOverlays(page);
    await page.getByTestId('nav-audit').click();
    const newest = page.getByTestId('audit-screen').getByTestId('audit-row').first();
    await expect.poll(() => newest.textContent()).toContain('Plain TXT');
    expect(await newest.textContent()).toContain('"card number password" per line');
    await page.getByTestId('language-switch').click();
    expect(problems).toEqual([]);
  });
});
