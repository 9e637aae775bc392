// The buyer's steps through the real UI, by the data-testids the screens carry (then roles and text):
// the one steps file of both hosts' journeys, the web host's e2e in Chromium and the desktop app's in
// real Electron (test/electron). Waits are bounded: the app polls the merchant (15 s after a change,
// doubling; no webhooks in the web host), so a state change can take up to about half a minute to show.
import type { Locator, Page } from '@playwright/test';
import { expect } from 'vitest';
import { purchasable, type ControlProduct, type ControlVariant } from './sandbox-control';

/** Long enough for two of the tracker's polls (15 s, then 30 s) plus the sandbox's own delays. */
export const MERCHANT_WAIT_MS = 60_000;

export type NavPage = 'catalog' | 'orders' | 'aftersales' | 'vault' | 'settings';

export async function goTo(page: Page, target: NavPage): Promise<void> {
  await closeOverlays(page);
  await page.getByTestId(`nav-${target}`).click();
}

/** Closes open drawers and modals (Escape, as a buyer would), so that the frame can be used again. */
export async function closeOverlays(page: Page): Promise<void> {
  const open = page.locator('.ant-drawer-mask:visible, .ant-modal-mask:visible');
  for (let i = 0; i < 4 && (await open.count()) > 0; i++) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(350);
  }
  if ((await open.count()) > 0) throw new Error('a drawer or dialog would not close');
}

/** The one-click demo merchant from the connect screen, up to the catalog. */
export async function connectDemo(page: Page): Promise<void> {
  await page.getByTestId('connect-demo').click();
  // The demo merchant starts (its CA and catalog) before the connect test: slow on a loaded box.
  await page.getByTestId('connect-success').waitFor({ timeout: MERCHANT_WAIT_MS });
}

/** From the connect screen: the one-click demo merchant, then on to its catalog. */
export async function connectDemoToCatalog(page: Page): Promise<void> {
  await page.getByTestId('connect-screen').waitFor();
  await connectDemo(page);
  await page.getByTestId('connect-continue').click();
  await ensureCatalog(page);
}

/** A merchant's address, user ID and key typed into the connect screen, connected, up to its catalog. */
export async function connectMerchant(page: Page, merchant: { readonly baseUrl: string; readonly userId: string; readonly apiKey: string }): Promise<void> {
  await page.getByTestId('connect-base-url').fill(merchant.baseUrl);
  await page.getByTestId('connect-user-id').fill(merchant.userId);
  await page.getByTestId('connect-api-key').fill(merchant.apiKey);
  await page.getByTestId('connect-submit').click();
  await page.getByTestId('connect-success').waitFor({ timeout: MERCHANT_WAIT_MS });
  await page.getByTestId('connect-continue').click();
  await ensureCatalog(page);
}

/**
 * The catalog has rows. The first sync starts by itself after connecting; while it runs, "sync now"
 * is disabled and the buyer waits for it. Only an empty catalog with no sync running needs the button.
 */
export async function ensureCatalog(page: Page): Promise<void> {
  const firstRow = page.getByTestId('catalog-row').first();
  await page.getByTestId('catalog-screen').waitFor();
  await firstRow.or(page.getByTestId('catalog-empty')).first().waitFor();
  if (!(await firstRow.isVisible()) && (await page.getByTestId('sync-now').isEnabled())) await page.getByTestId('sync-now').click();
  await firstRow.waitFor({ timeout: 30_000 });
}

export async function search(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('catalog-search');
  await box.fill(text);
}

/** Finds the product by its name through the search box, and opens it. */
export async function openProduct(page: Page, product: ControlProduct): Promise<Locator> {
  await goTo(page, 'catalog');
  await search(page, product.name);
  const drawer = page.getByTestId('product-drawer');
  // The list is virtualized and follows the search as it settles: a row element found for this
  // product can show another one by the time it is clicked. Check the drawer names the product.
  for (let attempt = 0; ; attempt++) {
    await page.locator(`[data-testid="catalog-row"][data-product-ref="${product.productRef}"]`).click();
    await drawer.getByTestId('variant-row').first().waitFor();
    if ((await page.locator('.ant-drawer-title').first().textContent()) === product.name || attempt === 3) break;
    await closeOverlays(page);
  }
  return drawer;
}

export function variantRow(page: Page, variant: ControlVariant): Locator {
  return page.locator(`[data-testid="variant-row"][data-variant-ref="${variant.variantRef}"]`);
}

/** Opens the order form of one variant and waits for the form generated from its template. */
export async function openOrderForm(page: Page, product: ControlProduct, variant: ControlVariant): Promise<Locator> {
  await openProduct(page, product);
  await variantRow(page, variant).getByTestId('variant-buy').click();
  const modal = page.getByTestId('order-modal');
  // The first full sync spends the merchant's request quota on product details (the demo's 200 take
  // minutes at its real-time quota), and a template fetched meanwhile waits its turn.
  await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
  return modal;
}

/** Fills every purchase field with a value its type and the demo's patterns accept. */
export async function fillPurchaseFields(page: Page, modal: Locator): Promise<void> {
  // The inputs only: the inline errors (order-field-error) share the prefix and vanish as fields fill,
  // so counting them made a later index point at nothing (a 15 s click wait, now and then).
  const fields = modal.locator('[data-testid^="order-field-"]:not([data-testid="order-field-error"])');
  const count = await fields.count();
  for (let i = 0; i < count; i++) {
    const field = fields.nth(i);
    const isInput = (await field.locator('xpath=self::input').count()) > 0;
    if (!isInput) {
      // antd Select: open it and take the first option with the keyboard, as a buyer could.
      await field.click();
      await page.keyboard.press('Enter');
      continue;
    }
    const type = await field.getAttribute('type');
    const mode = await field.getAttribute('inputmode');
    // Mobile, QQ number, 9-digit game UID, account names (5+ characters), e-mail.
    const value = type === 'tel' ? '13800138000' : type === 'email' ? 'buyer@163.com' : mode === 'numeric' ? '123456789' : '123456789';
    await field.fill(value);
  }
}

/** Reviews the form and pays on the confirmation step: exactly what that step shows is sent. */
export async function reviewAndPay(modal: Locator): Promise<void> {
  await modal.getByTestId('order-submit').click();
  await modal.getByTestId('order-confirmation').waitFor();
  await modal.getByTestId('order-place').click();
}

/** Sends the form and opens the new order from the outcome; answers its clientOrderRef. */
export async function submitAndViewOrder(page: Page, modal: Locator): Promise<string> {
  await reviewAndPay(modal);
  const outcome = modal.getByTestId('order-outcome');
  await outcome.waitFor();
  await modal.getByTestId('order-view').click();
  const detail = page.getByTestId('order-detail');
  await detail.getByTestId('order-status').first().waitFor();
  const ref = (await detail.getByTestId('detail-client-ref').textContent()) ?? '';
  return ref.trim();
}

/** The status badge of the open order detail reaches one of the given states. */
export async function waitForDetailStatus(page: Page, states: readonly string[], timeout = MERCHANT_WAIT_MS): Promise<string> {
  const badge = page.getByTestId('order-detail').getByTestId('order-status').first();
  const selector = states.map((state) => `[data-status="${state}"]`).join(', ');
  await page.getByTestId('order-detail').locator(`[data-testid="order-status"]:is(${selector})`).first().waitFor({ timeout });
  return (await badge.getAttribute('data-status')) ?? '';
}


/** Picks the first purchasable variant the predicate likes, product by product. */
export function pick(products: readonly ControlProduct[], like: (product: ControlProduct, variant: ControlVariant) => boolean): { product: ControlProduct; variant: ControlVariant } {
  for (const product of products) {
    for (const variant of product.variants) {
      if (like(product, variant)) return { product, variant };
    }
  }
  throw new Error('the demo catalog has no variant of the kind this test needs');
}

/**
 * Buys `units` card codes of a product not in `exclude` through the order form (review, pay) and
 * waits for the order to complete with its cards; leaves its detail open. Answers the order's ref and
 * the product bought.
 */
export async function buyCardOrder(page: Page, products: readonly ControlProduct[], units: number, exclude: readonly number[]): Promise<{ ref: string; productRef: number }> {
  const { product, variant } = pick(
    products,
    (p, v) =>
      p.productType === 'card' &&
      !exclude.includes(p.productRef) &&
      v.supply === 'succeed' &&
      v.entryMode === 'none' &&
      v.unitRule.min <= units &&
      v.unitRule.max >= units &&
      (units - v.unitRule.min) % v.unitRule.step === 0 &&
      (v.remainingUnits === null || v.remainingUnits >= units) &&
      purchasable(p, v),
  );
  const modal = await openOrderForm(page, product, variant);
  await modal.getByTestId('order-units').fill(String(units));
  await expect.poll(() => modal.getByTestId('order-units-error').count()).toBe(0);
  const ref = await submitAndViewOrder(page, modal);
  await waitForDetailStatus(page, ['completed']);
  await expect.poll(() => page.getByTestId('order-detail').getByTestId('detail-card-masked').count(), { timeout: 30_000 }).toBe(units);
  return { ref, productRef: product.productRef };
}

export interface RevealedCard {
  /** The masked number shown before the reveal. */
  readonly masked: string;
  readonly cardNo: string;
  /** '' for a card without a password. */
  readonly password: string;
}

/**
 * Reveals one vault row's codes (an audited call), reads them, and hides them again; `whileShown`
 * runs while they are on screen (a screenshot).
 */
export async function revealCard(row: Locator, whileShown?: () => Promise<void>): Promise<RevealedCard> {
  const masked = ((await row.getByTestId('vault-card-masked').textContent()) ?? '').trim();
  await row.getByTestId('vault-reveal').click();
  const cardNo = ((await row.getByTestId('vault-card-no').textContent()) ?? '').trim();
  // Rendered with the number: a card without a password has no such cell.
  const hasPassword = (await row.getByTestId('vault-card-password').count()) > 0;
  const password = hasPassword ? ((await row.getByTestId('vault-card-password').textContent()) ?? '').trim() : '';
  await whileShown?.();
  await row.getByTestId('vault-hide').click();
  await row.getByTestId('vault-card-masked').waitFor();
  return { masked, cardNo, password };
}

/** Ticks the checkbox of every row given and waits for the vault's selection count to say so. */
export async function selectCards(page: Page, rows: Locator): Promise<void> {
  const count = await rows.count();
  for (let i = 0; i < count; i++) await rows.nth(i).locator('.ant-checkbox').first().click();
  await expect.poll(() => page.getByTestId('vault-selected-count').textContent()).toContain(String(count));
}

/** Opens the export dialog of the vault's selection and waits for its preview to count `cards`. */
export async function openExportDialog(page: Page, cards: number): Promise<Locator> {
  await page.getByTestId('vault-export').click();
  const dialog = page.getByTestId('export-dialog');
  await expect.poll(() => dialog.getByTestId('export-preview').getAttribute('data-count')).toBe(String(cards));
  return dialog;
}

export async function typeExportPasswords(dialog: Locator, password: string, confirm: string): Promise<void> {
  await dialog.getByTestId('export-password').fill(password);
  await dialog.getByTestId('export-password-confirm').fill(confirm);
}

/**
 * Sends the export and waits for its outcome, which it answers. Where the file went is the host's
 * part: the web host's browser downloads it, the desktop app writes where its save dialog said.
 */
export async function submitExportDialog(dialog: Locator): Promise<Locator> {
  await dialog.getByTestId('export-submit').click();
  const outcome = dialog.getByTestId('export-result');
  await outcome.waitFor({ timeout: 30_000 });
  return outcome;
}
