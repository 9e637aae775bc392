// Option fields filled by label (contract §7.11 "Filled by label", §13.3) through the real UI (built
// renderer, Debian Chromium, web host and its demo merchant): the order form's paste box takes
// `苹果QQ区⇥账号⇥角色` lines, keeps a zone the buyer had already chosen when the line leaves it empty,
// lists a line whose zone names no option (and leaves it out); a batch file names zones by label, by
// code and loosely, and its row naming no zone is flagged and never ordered. The sandbox's control API
// proves the merchant received the codes, and its ledger that each order was charged once, as confirmed.
// Screenshots of the per-row errors in zh-CN and English, light and dark, go to option-paste-*.png in the temp folder (/tmp on Linux).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeOverlays, MERCHANT_WAIT_MS, openOrderForm, openProduct, pick, variantRow } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct, type ControlVariant } from './support/sandbox-control';
import { untranslatedOn } from './support/visible-text';

let session: DemoSession;
let page: Page;
let game: { product: ControlProduct; variant: ControlVariant };

const yuanToFen = (yuan: string): number => Math.round(Number(yuan) * 100);
const noSpaces = (text: string | undefined): string => (text ?? '').replace(/\s/g, '');

/** The screen in the light and the dark look, into the temp folder and the test output. */
async function photograph(name: string, lang: 'zh-CN' | 'en'): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(tmpdir(), `${name}-${lang}-${scheme}.png`) });
    await screenshot(page, `${name}-${lang}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The UI in the language asked, switched from the header as a buyer does. */
async function speak(lang: 'zh-CN' | 'en'): Promise<void> {
  // A batch dialog can take longer to close than closeOverlays waits on a loaded machine.
  await closeOverlays(page).catch(async () => {
    await page.waitForTimeout(1500);
    await closeOverlays(page);
  });
  const word = lang === 'zh-CN' ? '商品目录' : 'Catalog';
  if (!((await page.getByTestId('nav-catalog').textContent()) ?? '').includes(word)) await page.getByTestId('language-switch').click();
  await expect.poll(() => page.getByTestId('nav-catalog').textContent()).toContain(word);
}

async function expectAllChinese(): Promise<void> {
  expect(JSON.stringify(await untranslatedOn(page))).toBe('[]');
}

/** Types lines into the paste box (tabs between the values, as a spreadsheet copies them). */
async function paste(modal: Locator, lines: readonly string[]): Promise<void> {
  await modal.getByTestId('order-paste-toggle').click();
  await modal.getByTestId('order-paste').fill(`${lines.join('\n')}\n`);
}

const PASTED = [
  '\t987 654 321\t小明', // line 1: no zone — the one chosen in unit 1 stays
  '苹果Q区\tplayer22222\t小红', // line 2: no such zone — listed, left out
  '苹果QQ区\tplayer33333\t小刚', // line 3: the label
  '安卓ｑｑ 区\tplayer44444', // line 4: the label typed loosely, no role
];

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
  game = pick(session.products, (p, v) => p.name.startsWith('王者荣耀点券直充') && v.entryMode === 'perUnit' && v.supply === 'succeed' && v.unitRule.min === 1 && v.unitRule.step === 1 && v.unitRule.max >= 3 && purchasable(p, v));
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('option-paste', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

describe('option fields filled by label, in the real UI', () => {
  it('the paste box: zones by label, a chosen zone kept, a line naming no zone listed and left out; the merchant gets the codes, charged once', async () => {
    // First in English, for the picture of the listed line.
    await speak('en');
    let modal = await openOrderForm(page, game.product, game.variant);
    await paste(modal, PASTED);
    const problem = modal.getByTestId('order-paste-problem');
    await problem.waitFor();
    expect(await problem.getAttribute('data-line')).toBe('2');
    expect(await problem.textContent()).toBe('Line 2: 游戏区服 “苹果Q区” is not one of the options: 安卓QQ区, 苹果QQ区, 安卓微信区, or 苹果微信区');
    await photograph('option-paste-box', 'en');

    await speak('zh-CN');
    modal = await openOrderForm(page, game.product, game.variant);
    // The buyer picks a zone for unit 1 first, then pastes.
    await modal.getByTestId('order-field-0-zone').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '苹果微信区' }).click();
    await paste(modal, PASTED);
    await modal.getByTestId('order-paste-problem').waitFor();
    const problems = modal.getByTestId('order-paste-problem');
    expect(await problems.count()).toBe(1);
    expect(await problems.first().textContent()).toBe('第 2 行：游戏区服「苹果Q区」不是可选项，可选：安卓QQ区、苹果QQ区、安卓微信区或苹果微信区');
    expect(await modal.getByTestId('order-paste-problems').textContent()).toContain('1 行的选项无法识别，不会填入');
    const apply = modal.getByTestId('order-paste-apply');
    expect(await apply.textContent()).toContain('3');
    await expectAllChinese();
    await photograph('option-paste-box', 'zh-CN');

    await apply.click();
    await expect.poll(() => modal.getByTestId('order-group').count()).toBe(3);
    expect(await modal.getByTestId('order-field-0-zone').textContent()).toContain('苹果微信区');
    expect(await modal.getByTestId('order-field-1-zone').textContent()).toContain('苹果QQ区');
    expect(await modal.getByTestId('order-field-2-zone').textContent()).toContain('安卓QQ区');
    expect(await modal.getByTestId('order-field-1-account').inputValue()).toBe('player33333');

    // The review reads labels, never codes; what is confirmed is what is charged.
    const before = await session.control.ledger(session.userId);
    await modal.getByTestId('order-submit').click();
    const confirmation = modal.getByTestId('order-confirmation');
    await confirmation.waitFor();
    const reviewed = (await confirmation.getByTestId('confirm-entries').textContent()) ?? '';
    for (const label of ['苹果微信区', '苹果QQ区', '安卓QQ区']) expect(reviewed).toContain(`游戏区服：${label}`);
    for (const code of ['ios-wx', 'ios-qq', 'android-qq']) expect(reviewed).not.toContain(code);
    expect(reviewed).not.toContain('player22222');
    expect(await confirmation.getByTestId('confirm-units').textContent()).toBe('3');
    const confirmedFen = yuanToFen(((await confirmation.getByTestId('confirm-total').textContent()) ?? '').replace(/[^\d.]/g, ''));
    expect(confirmedFen).toBe(3 * yuanToFen(game.variant.price));
    await confirmation.getByTestId('order-place').click();
    await modal.getByTestId('order-outcome').waitFor();
    await modal.getByTestId('order-view').click();
    const detail = page.getByTestId('order-detail');
    const ref = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
    expect(ref).not.toBe('');

    // The merchant received the codes, for the three lines used (the refused one never left).
    await expect.poll(async () => (await session.control.receivedOrder(ref).catch(() => null))?.units ?? 0, { timeout: MERCHANT_WAIT_MS, interval: 500 }).toBe(3);
    const received = await session.control.receivedOrder(ref);
    expect(received.purchaseEntries.map((group) => group.zone)).toEqual(['ios-wx', 'ios-qq', 'android-qq']);
    expect(received.purchaseEntries.map((group) => noSpaces(group.account))).toEqual(['987654321', 'player33333', 'player44444']);
    expect(received.purchaseEntries.map((group) => group.roleName ?? '')).toEqual(['小明', '小刚', '']);
    // Charged once, exactly the confirmed total.
    await expect.poll(async () => (await session.control.ledger(session.userId)).entries.filter((e) => e.clientOrderRef === ref).length, { timeout: MERCHANT_WAIT_MS, interval: 500 }).toBe(1);
    const after = await session.control.ledger(session.userId);
    const added = after.entries.slice(before.entries.length);
    expect(added.map((e) => [e.kind, e.clientOrderRef, yuanToFen(e.amount)])).toEqual([['charge', ref, confirmedFen]]);
    expect(yuanToFen(before.balance) - yuanToFen(after.balance)).toBe(confirmedFen);
    expect(session.problems).toEqual([]);
  }, 240_000);

  it('a batch file names zones by label, by code and loosely; the row naming no zone is flagged and never ordered; each row charged once', async () => {
    await speak('zh-CN');
    const file = '游戏区服,游戏账号,角色名\r\n苹果QQ区,player50001,甲\r\nandroid-wx,player50002,乙\r\n苹果 ｑｑ区,player50003,\r\n苹果Q区,player50004,丁\r\n';
    const open = async (): Promise<Locator> => {
      await openProduct(page, game.product);
      await variantRow(page, game.variant).getByTestId('variant-batch').click();
      const modal = page.getByTestId('batch-modal');
      await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name: '区服名单.csv', mimeType: 'text/csv', buffer: Buffer.from(file, 'utf8') });
      await modal.getByTestId('batch-preview').waitFor({ timeout: MERCHANT_WAIT_MS });
      return modal;
    };
    const modal = await open();
    const totals = modal.getByTestId('batch-totals');
    expect(await totals.getAttribute('data-ok')).toBe('3');
    expect(await totals.getAttribute('data-errors')).toBe('1');
    const rowError = modal.getByTestId('batch-row-error');
    expect(await rowError.count()).toBe(1);
    expect(await rowError.first().textContent()).toBe('游戏区服「苹果Q区」不是可选项，可选：安卓QQ区、苹果QQ区、安卓微信区或苹果微信区');
    // In full above the rows (a row's cell is one line high), with the rows that hold it.
    const listed = modal.getByTestId('batch-option-problem');
    expect(await listed.count()).toBe(1);
    expect(await listed.first().getAttribute('data-rows')).toBe('5');
    expect(await listed.first().textContent()).toBe('第 5 行：游戏区服「苹果Q区」不是可选项，可选：安卓QQ区、苹果QQ区、安卓微信区或苹果微信区');
    expect(await modal.getByTestId('batch-option-problems').textContent()).toContain('1 行的选项无法识别，这些行不会下单');
    // A zone written as a code or loosely reads as its label, the file's cell beside it.
    const labelled = modal.getByTestId('batch-option-label');
    expect(await labelled.count()).toBe(2);
    expect(await labelled.nth(0).textContent()).toBe('安卓微信区（android-wx）');
    expect(await labelled.nth(1).textContent()).toBe('苹果QQ区（苹果 ｑｑ区）');
    await expectAllChinese();
    await photograph('option-batch-preview', 'zh-CN');

    await modal.getByTestId('batch-next').click();
    const confirm = modal.getByTestId('batch-confirm');
    await confirm.waitFor();
    expect(await confirm.getByTestId('batch-confirm-rows').textContent()).toBe('3');
    const confirmedFen = yuanToFen(((await confirm.getByTestId('batch-confirm-total').textContent()) ?? '').replace(/[^\d.]/g, ''));
    const price = yuanToFen(game.variant.price);
    expect(confirmedFen).toBe(3 * price);
    const before = await session.control.ledger(session.userId);
    await confirm.getByTestId('batch-pay').click();
    const status = modal.getByTestId('batch-status');
    await status.waitFor({ timeout: MERCHANT_WAIT_MS });
    await expect.poll(() => status.getAttribute('data-accepted'), { timeout: MERCHANT_WAIT_MS, interval: 300 }).toBe('3');

    // The ledger: three charges, one per order, each the row's confirmed amount; nothing else.
    const after = await session.control.ledger(session.userId);
    const added = after.entries.slice(before.entries.length);
    expect(added.every((e) => e.kind === 'charge' && yuanToFen(e.amount) === price)).toBe(true);
    const refs = added.map((e) => e.clientOrderRef);
    expect(new Set(refs).size).toBe(3);
    expect(refs).toHaveLength(3);
    expect(yuanToFen(before.balance) - yuanToFen(after.balance)).toBe(confirmedFen);
    // Each order went with the code of its row's zone; the row naming no zone was never sent.
    const received = await Promise.all(refs.map((ref) => session.control.receivedOrder(ref)));
    const sent = received.map((r) => `${r.purchaseEntries[0]?.account ?? ''}=${r.purchaseEntries[0]?.zone ?? ''}`).sort();
    expect(sent).toEqual(['player50001=ios-qq', 'player50002=android-wx', 'player50003=ios-qq']);

    // The same preview in English, for the picture of the flagged row.
    await speak('en');
    const english = await open();
    await english.getByTestId('batch-row-error').first().waitFor();
    expect(await english.getByTestId('batch-row-error').first().textContent()).toBe('游戏区服 “苹果Q区” is not one of the options: 安卓QQ区, 苹果QQ区, 安卓微信区, or 苹果微信区');
    expect(await english.getByTestId('batch-option-problem').first().textContent()).toBe('Row 5: 游戏区服 “苹果Q区” is not one of the options: 安卓QQ区, 苹果QQ区, 安卓微信区, or 苹果微信区');
    await photograph('option-batch-preview', 'en');
    expect(session.problems).toEqual([]);
  }, 240_000);
});
