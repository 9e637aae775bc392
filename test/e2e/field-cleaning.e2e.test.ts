// One cleaning rule for every template field (contract §5.1), through the real UI (built renderer,
// Chromium, web host and its demo merchant): a game account typed `987 654 321`, or pasted as
// full-width `１２３４５６７８` through the paste box, is reviewed as the plain digits, and the
// merchant received and charged exactly that (its control API: what it received, its ledger); a QQ
// number out of the pattern shows the expected format computed from the template, in zh-CN and
// English; pictures of the error and the review in both languages, light and dark, go to the temp folder (/tmp on Linux).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeOverlays, MERCHANT_WAIT_MS, openOrderForm, pick } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable, type ControlProduct, type ControlVariant } from './support/sandbox-control';
import { untranslatedOn } from './support/visible-text';

let session: DemoSession;
let page: Page;

const yuanToFen = (yuan: string): number => Math.round(Number(yuan) * 100);
const QQ_PRODUCTS = /^(腾讯Q币直充|QQ音乐豪华绿钻直充|腾讯视频VIP直充|QQ阅读包月会员直充)/;

/** The screen in light and dark (the app follows the system's), into the temp folder and the test output. */
async function photograph(name: string, lang: 'zh-CN' | 'en'): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(tmpdir(), `field-cleaning-${name}-${lang}-${scheme}.png`) });
    await screenshot(page, `field-cleaning-${name}-${lang}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function switchLanguage(): Promise<void> {
  // The order dialog covers the header: the switch is clicked as a script would, not through the overlay.
  await page.getByTestId('language-switch').dispatchEvent('click');
  await page.waitForTimeout(800);
}

/** Reviews the order, pays, and follows it to the outcome; answers the ref, the review's lines and the confirmed total. */
async function reviewAndPlace(modal: Locator, photo: string): Promise<{ ref: string; reviewed: string[]; confirmedFen: number }> {
  await modal.getByTestId('order-submit').click();
  const confirmation = modal.getByTestId('order-confirmation');
  await confirmation.waitFor();
  const reviewed = await confirmation.getByTestId('confirm-entry').allTextContents();
  const confirmedFen = yuanToFen(((await confirmation.getByTestId('confirm-total').textContent()) ?? '').replace(/[^\d.]/g, ''));
  await photograph(photo, 'zh-CN');
  await switchLanguage();
  await photograph(photo, 'en');
  await switchLanguage();
  await confirmation.getByTestId('order-place').click();
  await modal.getByTestId('order-outcome').waitFor({ timeout: MERCHANT_WAIT_MS });
  await modal.getByTestId('order-view').click();
  const detail = page.getByTestId('order-detail');
  await detail.getByTestId('order-status').first().waitFor();
  const ref = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
  return { ref, reviewed, confirmedFen };
}

/** The merchant charged this order exactly the confirmed total, once, and the balance moved by it. */
async function expectChargedOnce(ref: string, confirmedFen: number, balanceBefore: string): Promise<void> {
  const after = await session.control.ledger(session.userId);
  expect(after.entries.filter((e) => e.clientOrderRef === ref).map((e) => [e.kind, yuanToFen(e.amount)])).toEqual([['charge', confirmedFen]]);
  expect(yuanToFen(balanceBefore) - yuanToFen(after.balance)).toBe(confirmedFen);
}

const gameTopup = (units: number): { product: ControlProduct; variant: ControlVariant } =>
  pick(session.products, (p, v) => p.name.startsWith('王者荣耀点券直充') && v.supply === 'succeed' && v.unitRule.min === 1 && v.unitRule.step === 1 && v.unitRule.max >= units && (units === 1 || v.entryMode === 'perUnit') && purchasable(p, v));

beforeAll(async () => {
  session = await startDemoSession();
  ({ page } = session);
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('field-cleaning', context.task.name);
  await closeOverlays(page).catch(() => undefined);
});

afterAll(async () => {
  await session?.stop();
});

describe('a game account is sent as the account it is', () => {
  it('typed `987 654 321` in the form: reviewed, received and charged as 987654321; the role name keeps its space', async () => {
    const { product, variant } = gameTopup(1);
    const before = await session.control.ledger(session.userId);
    const modal = await openOrderForm(page, product, variant);
    await modal.getByTestId('order-field-0-zone').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '苹果QQ区' }).click();
    await modal.getByTestId('order-field-0-account').fill('987 654 321');
    await modal.getByTestId('order-field-0-roleName').fill(' 小明 二号 ');
    await modal.getByTestId('order-field-0-account').blur();
    expect(await modal.getByTestId('order-field-error').count()).toBe(0);

    const { ref, reviewed, confirmedFen } = await reviewAndPlace(modal, 'review-typed');
    expect(reviewed).toHaveLength(1);
    expect(reviewed[0]).toContain('游戏账号：987654321');
    expect(reviewed[0]).toContain('角色名：小明 二号');
    expect(reviewed[0]).not.toContain('987 654');
    // What the review showed is exactly what the merchant received, and it charged what was confirmed.
    const received = await session.control.receivedOrder(ref);
    expect(received.purchaseEntries).toEqual([{ account: '987654321', roleName: '小明 二号', zone: 'ios-qq' }]);
    await expectChargedOnce(ref, confirmedFen, before.balance);
    const recharged = page.getByTestId('order-detail').getByTestId('detail-recharged');
    await expect.poll(() => recharged.textContent()).toContain('987654321');
    expect(session.problems).toEqual([]);
  }, 240_000);

  it('pasted through the paste box with full-width digits and spaces: reviewed and sent as the plain accounts', async () => {
    const { product, variant } = gameTopup(2);
    const before = await session.control.ledger(session.userId);
    const modal = await openOrderForm(page, product, variant);
    await modal.getByTestId('order-paste-toggle').click();
    await modal.getByTestId('order-paste').fill('ios-qq\t１２３４５６７８\t小明\nandroid-qq\t987 654\u3000321\t\n');
    const apply = modal.getByTestId('order-paste-apply');
    await expect.poll(() => apply.isEnabled(), { timeout: 10_000, interval: 200 }).toBe(true);
    await apply.click();
    await expect.poll(() => modal.getByTestId('order-group').count()).toBe(2);
    expect(await modal.getByTestId('order-field-error').count()).toBe(0);

    const { ref, reviewed, confirmedFen } = await reviewAndPlace(modal, 'review-pasted');
    expect(reviewed.map((line) => /游戏账号：(\S+)/.exec(line)?.[1])).toEqual(['12345678', '987654321']);
    const received = await session.control.receivedOrder(ref);
    expect(received).toMatchObject({ units: 2, purchaseEntries: [{ account: '12345678', roleName: '小明', zone: 'ios-qq' }, { account: '987654321', zone: 'android-qq' }] });
    await expectChargedOnce(ref, confirmedFen, before.balance);
    expect(session.problems).toEqual([]);
  }, 240_000);
});

describe('a QQ number out of the pattern says what is expected', () => {
  it('shows 5–12 digits, not starting with 0, in both languages; then `９８７ ６５４ ３２１` is sent as 987654321', async () => {
    const { product, variant } = pick(session.products, (p, v) => QQ_PRODUCTS.test(p.name) && v.supply === 'succeed' && v.unitRule.min === 1 && purchasable(p, v));
    const before = await session.control.ledger(session.userId);
    const modal = await openOrderForm(page, product, variant);
    const qq = modal.getByTestId('order-field-0-qq');
    const error = modal.getByTestId('order-field-error');
    // 20 digits are refused, never cut to 12 by the box; a valid value between the two clears the error.
    for (const wrong of ['0123 4567', '98765432109876543210']) {
      await qq.fill('12345');
      await qq.blur();
      await expect.poll(() => error.count()).toBe(0);
      await qq.fill(wrong);
      await qq.blur();
      expect(await qq.inputValue()).toBe(wrong);
      await expect.poll(() => error.first().textContent()).toBe('QQ号码：5–12 位数字，不以 0 开头');
    }
    // A 12-digit number typed in groups is longer than 12 characters as typed, and fits once cleaned.
    await qq.fill('9876 5432 1098');
    await qq.blur();
    await expect.poll(() => error.count()).toBe(0);
    await qq.fill('98765432109876543210');
    await qq.blur();
    await expect.poll(() => error.first().textContent()).toBe('QQ号码：5–12 位数字，不以 0 开头');
    expect(JSON.stringify(await untranslatedOn(page))).toBe('[]');
    await photograph('qq-error', 'zh-CN');
    await switchLanguage();
    await expect.poll(() => error.first().textContent()).toBe('QQ号码: 5–12 digits, not starting with 0');
    await photograph('qq-error', 'en');
    await switchLanguage();
    // Nothing was sent while it was wrong.
    expect((await session.control.ledger(session.userId)).entries.length).toBe(before.entries.length);

    await qq.fill('９８７ ６５４ ３２１');
    await qq.blur();
    await expect.poll(() => error.count()).toBe(0);
    const { ref, reviewed, confirmedFen } = await reviewAndPlace(modal, 'review-qq');
    expect(reviewed).toEqual(['QQ号码：987654321']);
    expect((await session.control.receivedOrder(ref)).purchaseEntries).toEqual([{ qq: '987654321' }]);
    await expectChargedOnce(ref, confirmedFen, before.balance);
    expect(session.problems).toEqual([]);
  }, 240_000);
});
