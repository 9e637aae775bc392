// Buyer words only in buyer screens (issue 26 point 2), in Chromium through the web host with secrets
// in memory only: the order and batch confirmations of a card product warn in the buyer's words and
// fold the restart command under "给技术人员" (shown as code, never as literal backticks); a top-up's
// confirmations and outcome never mention card codes; the top-up accounts read "充值手机号：…" with the
// Chinese colon. Screenshots of the four confirmations in zh-CN light and dark.
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeOverlays, fillPurchaseFields, goTo, MERCHANT_WAIT_MS, openOrderForm, openProduct, pick, variantRow } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';
import { purchasable } from './support/sandbox-control';

let session: DemoSession;
let page: Page;

beforeAll(async () => {
  session = await startDemoSession('zh-CN', { memorySecrets: true });
  page = session.page;
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('buyer-words', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

/** Developer words a buyer's text must not hold: a command, a flag, an environment variable, a code mark. */
const DEVELOPER_WORDS = /npm|--|PROCURE_|`/;
const text = async (locator: Locator): Promise<string> => (await locator.innerText()).trim();

async function setTheme(label: '浅色' | '深色'): Promise<void> {
  await closeOverlays(page);
  await goTo(page, 'settings');
  await page.getByTestId('settings-theme').locator('label').filter({ hasText: label }).click();
}

const card = () => pick(session.products, (p, v) => p.productType === 'card' && v.entryMode === 'none' && v.unitRule.min === 1 && v.unitRule.step === 1 && v.inventoryType === 'unlimited' && purchasable(p, v));
const topup = () => pick(session.products, (p, v) => p.productType === 'topup' && /话费充值/.test(p.name) && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v));

/** The warning in the buyer's words; the command only under the folded note, as code. */
async function checkCardWarning(scope: Locator, shot: string): Promise<void> {
  const warning = scope.getByTestId('memory-only-secrets');
  await warning.waitFor();
  expect(await text(warning)).toContain('卡密');
  expect(await text(warning)).not.toMatch(DEVELOPER_WORDS);
  expect(await text(warning.getByTestId('memory-only-technical-toggle'))).toBe('给技术人员');
  await screenshot(page, `${shot}-folded`);
  await warning.getByTestId('memory-only-technical-toggle').click();
  const codes = warning.locator('code');
  await codes.first().waitFor();
  expect(await codes.allInnerTexts()).toEqual(['PROCURE_PASSPHRASE', 'npm run web -- --data <数据目录>']);
  expect(await text(warning)).not.toContain('`');
  await screenshot(page, `${shot}-technical`);
}

async function cardOrderConfirmation(shot: string): Promise<void> {
  const { product, variant } = card();
  const modal = await openOrderForm(page, product, variant);
  await modal.getByTestId('order-submit').click();
  await modal.getByTestId('order-confirmation').waitFor();
  await checkCardWarning(modal, shot);
  expect(await text(modal)).not.toContain('`');
  await closeOverlays(page);
}

async function topupOrderConfirmation(shot: string, pay: boolean): Promise<void> {
  const { product, variant } = topup();
  const modal = await openOrderForm(page, product, variant);
  await fillPurchaseFields(page, modal);
  await modal.getByTestId('order-submit').click();
  const confirmation = modal.getByTestId('order-confirmation');
  await confirmation.waitFor();
  expect(await modal.getByTestId('memory-only-secrets').count()).toBe(0);
  expect(await text(modal)).not.toMatch(/卡密|`/);
  const entry = await text(confirmation.getByTestId('confirm-entry').first());
  expect(entry).toMatch(/^[^:]+：13800138000$/);
  await screenshot(page, shot);
  if (pay) {
    await modal.getByTestId('order-place').click();
    const outcome = modal.getByTestId('order-outcome');
    await outcome.waitFor({ timeout: MERCHANT_WAIT_MS });
    expect(await text(modal)).not.toMatch(/卡密|`/);
  }
  await closeOverlays(page);
}

async function openBatch(product: ReturnType<typeof card>, csv: string): Promise<Locator> {
  await openProduct(page, product.product);
  await variantRow(page, product.variant).getByTestId('variant-batch').click();
  const modal = page.getByTestId('batch-modal');
  await modal.getByTestId('batch-pick').waitFor();
  await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name: '名单.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await modal.getByTestId('batch-preview').waitFor({ timeout: MERCHANT_WAIT_MS });
  await modal.getByTestId('batch-next').click();
  await modal.getByTestId('batch-confirm').waitFor();
  return modal;
}

async function batchConfirmations(theme: string): Promise<void> {
  let modal = await openBatch(card(), '数量\r\n1\r\n1\r\n');
  await checkCardWarning(modal, `buyer-words-batch-card-${theme}`);
  expect(await text(modal.getByTestId('memory-only-secrets'))).toContain('这批订单的卡密在重启后将无法打开');
  expect(await text(modal)).not.toContain('`');
  await closeOverlays(page);

  modal = await openBatch(topup(), '手机号,数量\r\n13800138000,1\r\n13900139000,1\r\n');
  expect(await modal.getByTestId('memory-only-secrets').count()).toBe(0);
  expect(await text(modal)).not.toMatch(/卡密|`/);
  await screenshot(page, `buyer-words-batch-topup-${theme}`);
  await closeOverlays(page);
}

describe('buyer words only in buyer screens', () => {
  it('light: card confirmations fold the developer note away; top-up ones never speak of card codes', async () => {
    await setTheme('浅色');
    await cardOrderConfirmation('buyer-words-order-card-light');
    await topupOrderConfirmation('buyer-words-order-topup-light', true);
    await batchConfirmations('light');
  }, 300_000);

  it('dark: the same four confirmations', async () => {
    await setTheme('深色');
    await cardOrderConfirmation('buyer-words-order-card-dark');
    await topupOrderConfirmation('buyer-words-order-topup-dark', false);
    await batchConfirmations('dark');
    await setTheme('浅色');
  }, 300_000);
});
