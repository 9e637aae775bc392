// A batch CSV with bytes that are not valid text (issue 25), as a buyer meets it in Chromium through
// the web host and its demo merchant: a GB18030 file with two cut accounts is refused, naming the
// line and column of the first and how many rows; the buyer chooses to go on with those rows marked,
// sees them as errors in the preview, pays, and the sandbox's ledger shows exactly the clean rows
// charged. In English, a UTF-8 file with one broken sequence (valid GB18030 as mojibake) is refused
// as UTF-8, and nothing is charged. Screenshots zh-CN and English, light and dark, into /tmp.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gb18030, utf8 } from '../core/batch/batch-fixtures';
import { closeOverlays, MERCHANT_WAIT_MS, openProduct, pick, variantRow } from './support/app-steps';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct, type ControlVariant } from './support/sandbox-control';
import { untranslatedOn } from './support/visible-text';

const SHOTS = join(tmpdir(), 'procure-invalid-bytes-screens');
let session: DemoSession;
let page: Page;
let chosen: { product: ControlProduct; variant: ControlVariant };

const yuanToFen = (yuan: string): number => Math.round(Number(yuan) * 100);

/** GB18030: rows 3 and 5 hold an account cut to 玩家 and a lone lead byte. */
const BROKEN_GB = Buffer.from([...gb18030('数量,游戏账号\r\n1,玩家甲\r\n1,玩家'), 0xcd, ...gb18030('\r\n2,玩家丙\r\n3,玩家'), 0xb0, ...gb18030('\r\n1,玩家戊\r\n')]);

/** UTF-8 with the first byte of row 3's 玩 broken: those bytes are valid GB18030, but read as UTF-8 by the evidence. */
function brokenUtf8(): Buffer {
  const bytes = utf8('数量,客户\n1,玩家甲乙\n1,玩家丙\n');
  bytes[31] = 0x80;
  new TextDecoder('gb18030', { fatal: true }).decode(bytes);
  return Buffer.from(bytes);
}

async function shots(name: string, lang: 'zh' | 'en'): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const dark of [false, true]) {
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SHOTS, `${name}-${lang}-${dark ? 'dark' : 'light'}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function openBatch(): Promise<Locator> {
  await closeOverlays(page);
  await openProduct(page, chosen.product);
  await variantRow(page, chosen.variant).getByTestId('variant-batch').click();
  const modal = page.getByTestId('batch-modal');
  await modal.getByTestId('batch-pick').waitFor();
  return modal;
}

async function drop(modal: Locator, name: string, buffer: Buffer): Promise<Locator> {
  await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer });
  const problem = modal.getByTestId('batch-file-problem');
  await problem.waitFor({ timeout: MERCHANT_WAIT_MS });
  return problem;
}

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
  chosen = pick(session.products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.unitRule.min === 1 && v.unitRule.step === 1 && v.unitRule.max >= 3 && v.inventoryType === 'unlimited' && purchasable(p, v));
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('batch-invalid-bytes', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

describe('a batch file with invalid bytes, in the real UI', () => {
  it('refuses broken GB18030 with where and how many; marked on the buyer’s choice, only the clean rows are charged', async () => {
    const price = yuanToFen(chosen.variant.price);
    const before = await session.control.ledger(session.userId);
    const modal = await openBatch();
    const problem = await drop(modal, '玩家名单.csv', BROKEN_GB);
    expect(await problem.getAttribute('data-problem')).toBe('invalidBytes');
    expect(await problem.textContent()).toContain('此 CSV 不是有效的 GB18030 文本：第 3 行第 5 个字符处有无法识别的字节，共 2 行含有这类字节。');
    expect(JSON.stringify(await untranslatedOn(page))).toBe('[]');
    await shots('batch-invalid-bytes-refused', 'zh');
    expect(await session.control.ledger(session.userId)).toEqual(before);

    await modal.getByTestId('batch-mark-invalid-rows').click();
    await modal.getByTestId('batch-preview').waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await modal.getByTestId('batch-invalid-rows-notice').getAttribute('data-rows')).toBe('2');
    const totals = modal.getByTestId('batch-totals');
    expect(await totals.getAttribute('data-ok')).toBe('3');
    expect(await totals.getAttribute('data-errors')).toBe('2');
    expect(Number(await totals.getAttribute('data-total-fen'))).toBe(4 * price);
    expect(await modal.getByTestId('batch-row-error').allTextContents()).toEqual(['第 3 行第 5 个字符处有无法识别的字节', '第 5 行第 5 个字符处有无法识别的字节']);
    expect(JSON.stringify(await untranslatedOn(page))).toBe('[]');
    await shots('batch-invalid-bytes-marked', 'zh');

    await modal.getByTestId('batch-next').click();
    await modal.getByTestId('batch-confirm').waitFor();
    expect(await modal.getByTestId('batch-confirm-rows').textContent()).toBe('3');
    await modal.getByTestId('batch-pay').click();
    const status = modal.getByTestId('batch-status');
    await expect.poll(() => status.getAttribute('data-accepted'), { timeout: MERCHANT_WAIT_MS, interval: 300 }).toBe('3');
    const after = await session.control.ledger(session.userId);
    const added = after.entries.slice(before.entries.length);
    expect(added.every((entry) => entry.kind === 'charge')).toBe(true);
    // Rows 2, 4 and 6: 1 + 2 + 1 units; rows 3 and 5 (3 units, invalid bytes) never ordered.
    expect(added.map((entry) => yuanToFen(entry.amount)).sort((a, b) => a - b)).toEqual([price, price, 2 * price]);
    expect(yuanToFen(before.balance) - yuanToFen(after.balance)).toBe(4 * price);
    expect(session.problems).toEqual([]);
  }, 240_000);

  it('in English: refuses UTF-8 with one broken sequence as UTF-8 (never GB18030 mojibake); nothing is charged', async () => {
    await closeOverlays(page);
    await page.getByTestId('language-switch').click();
    const before = await session.control.ledger(session.userId);
    const modal = await openBatch();
    const problem = await drop(modal, 'players.csv', brokenUtf8());
    expect(await problem.textContent()).toContain('This CSV is not valid UTF-8 text: unreadable bytes at line 3, column 3; 1 row holds such bytes.');
    await shots('batch-invalid-bytes-refused', 'en');
    await modal.getByTestId('batch-mark-invalid-rows').click();
    await modal.getByTestId('batch-preview').waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await modal.getByTestId('batch-row-error').allTextContents()).toEqual(['Unreadable bytes at line 3, column 3']);
    await shots('batch-invalid-bytes-marked', 'en');
    await closeOverlays(page);
    expect(await session.control.ledger(session.userId)).toEqual(before);
    expect(session.problems).toEqual([]);
  }, 240_000);
});
