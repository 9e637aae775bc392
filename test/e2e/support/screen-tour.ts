// A walk through every screen and dialog a buyer meets, on the demo merchant, in one browser page:
// the zh-CN completeness scan checks the words at each stop, the screenshots script photographs
// them. Stops run in order and may build on the ones before (the order bought at `order-form` is the
// one `order-detail`, the vault and the export show). Adding a screen is one line in TOUR_STOPS.
import type { Page } from '@playwright/test';
import { closeOverlays, connectDemo, ensureCatalog, fillPurchaseFields, goTo, MERCHANT_WAIT_MS, openProduct, pick, variantRow } from './app-steps';
import { WEBHOOK_PATHS, type WebhookPath } from '../../../src/renderer/src/lib/webhook-path';
import { bridgeCall } from './bridge-call';
import { purchasable, type ControlProduct, type ControlVariant, type SandboxControl } from './sandbox-control';
import { batchInvalidBytes } from './tour-batch-bytes';
import { pickDay } from './day-picker';

export interface Tour {
  readonly page: Page;
  readonly control: SandboxControl;
  readonly products: readonly ControlProduct[];
  /** What earlier stops made, for later ones. */
  readonly state: { userId: string; clientOrderRef: string };
}

export interface TourStop {
  /** File-name friendly: the scan reports by it, the screenshots are named after it. */
  readonly name: string;
  readonly open: (tour: Tour) => Promise<void>;
  /**
   * Photographed by `npm run screens` into docs/screens (the scan visits every stop): `all` in zh-CN
   * light and dark and English light, `zh-CN` in zh-CN light only; absent, not photographed.
   */
  readonly photo?: 'all' | 'zh-CN';
}

/** A card product of one fixed unit, delivered at once, needing no details: the tour's purchase. */
export function tourPurchase(products: readonly ControlProduct[]): { product: ControlProduct; variant: ControlVariant } {
  return pick(products, (p, v) => p.productType === 'card' && v.supply === 'succeed' && v.entryMode === 'none' && v.unitRule.min === 1 && purchasable(p, v));
}

async function settle(page: Page): Promise<void> {
  // antd's drawer and modal motion, so a scan or a picture sees the settled screen.
  await page.waitForTimeout(450);
}

async function openOrderFormOf(tour: Tour): Promise<void> {
  const { product, variant } = tourPurchase(tour.products);
  await openProduct(tour.page, product);
  await variantRow(tour.page, variant).getByTestId('variant-buy').click();
  await tour.page.getByTestId('order-modal').getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
}

async function placeOrder(tour: Tour): Promise<void> {
  const modal = tour.page.getByTestId('order-modal');
  await modal.getByTestId('order-place').click();
  await modal.getByTestId('order-outcome').waitFor();
}

async function openOrderDetail(tour: Tour): Promise<void> {
  const { page } = tour;
  await page.getByTestId('order-modal').getByTestId('order-view').click();
  const detail = page.getByTestId('order-detail');
  await detail.locator('[data-testid="order-status"][data-status="completed"]').first().waitFor({ timeout: MERCHANT_WAIT_MS });
  await detail.getByTestId('detail-card-masked').first().waitFor({ timeout: 30_000 });
  tour.state.clientOrderRef = ((await detail.getByTestId('detail-client-ref').textContent()) ?? '').trim();
}

async function openCaseForm(tour: Tour): Promise<void> {
  const { page } = tour;
  await page.getByTestId('order-detail').getByTestId('order-open-case').click();
  const form = page.getByTestId('case-form');
  await form.waitFor();
  // Submitting it empty shows what the form refuses, in words.
  await page.getByTestId('case-submit').click();
  await form.getByTestId('case-form-error').first().waitFor();
}

async function openCaseChat(tour: Tour): Promise<void> {
  const { page } = tour;
  const form = page.getByTestId('case-form');
  await form.getByTestId('case-category').click();
  await page.getByTestId('case-category-cardInvalid').click();
  await form.getByTestId('case-description-input').fill('卡密提示无效，请核实。');
  await page.getByTestId('case-submit').click();
  await page.getByTestId('case-chat').getByTestId('case-ref').waitFor({ timeout: MERCHANT_WAIT_MS });
}

async function revealCard(tour: Tour): Promise<void> {
  const { page } = tour;
  await goTo(page, 'vault');
  const row = page.locator(`[data-testid="vault-card"][data-ref="${tour.state.clientOrderRef}"]`).first();
  await row.getByTestId('vault-reveal').click();
  await row.getByTestId('vault-card-password').waitFor();
}

async function openExport(tour: Tour): Promise<void> {
  const { page } = tour;
  await page.locator('[data-testid="vault-card"]').first().locator('.ant-checkbox').first().click();
  await page.getByTestId('vault-export').click();
  await page.getByTestId('export-dialog').getByTestId('export-preview').waitFor();
}

/** A top-up's form, generated from the merchant's template (its labels and options), filled and reviewed. */
/** A phone top-up's batch file whose fourth row is the second's account written another way: flagged before Pay. */
async function batchDuplicates(tour: Tour): Promise<void> {
  const { page } = tour;
  const { product, variant } = pick(tour.products, (p, v) => p.productType === 'topup' && /话费充值|流量包|直充/.test(p.name) && v.entryMode === 'single' && purchasable(p, v));
  await closeOverlays(page);
  await openProduct(page, product);
  await variantRow(page, variant).getByTestId('variant-batch').click();
  const modal = page.getByTestId('batch-modal');
  const units = variant.unitRule.min;
  const text = `手机号,数量\n138 0013 8000,${units}\n13900139000,${units}\n13800138000,${units}\n`;
  await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name: '充值名单.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  await modal.getByTestId('batch-duplicate-rows').waitFor({ timeout: MERCHANT_WAIT_MS });
  await settle(page);
}

/** A game top-up's paste box with zones by label, one naming no zone: that line is listed, the others can be used (§7.11). */
async function pasteOptionLabels(tour: Tour): Promise<void> {
  const { page } = tour;
  const { product, variant } = pick(tour.products, (p, v) => p.name.startsWith('王者荣耀点券直充') && v.entryMode === 'perUnit' && v.unitRule.min === 1 && purchasable(p, v));
  // The batch dialog of the stop before can take longer to close than closeOverlays waits on a loaded machine.
  await closeOverlays(page).catch(async () => {
    await page.waitForTimeout(1500);
    await closeOverlays(page);
  });
  await openProduct(page, product);
  await variantRow(page, variant).getByTestId('variant-buy').click();
  const modal = page.getByTestId('order-modal');
  await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
  await modal.getByTestId('order-paste-toggle').click();
  await modal.getByTestId('order-paste').fill('苹果QQ区\t987654321\t小明\n苹果Q区\tplayer22222\t小红\n');
  await modal.getByTestId('order-paste-problem').waitFor();
  await settle(page);
}

async function topupConfirmation(tour: Tour): Promise<void> {
  const { page } = tour;
  // Not a game: their UID fields want patterns the generic filler does not meet.
  const game = /王者|原神|游戏|点券|梦幻|大话|西游/;
  const { product, variant } = pick(
    tour.products,
    (p, v) => p.productType === 'topup' && v.entryMode === 'single' && v.unitRule.min === 1 && purchasable(p, v) && !game.test(p.name),
  );
  await closeOverlays(page);
  await openProduct(page, product);
  await variantRow(page, variant).getByTestId('variant-buy').click();
  const modal = page.getByTestId('order-modal');
  await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
  await fillPurchaseFields(page, modal);
  await modal.getByTestId('order-submit').click();
  await modal.getByTestId('order-confirmation').waitFor();
}

/** A QQ number out of its pattern: the error names the format worked out from the template (contract §5.1). */
async function fieldFormatError(tour: Tour): Promise<void> {
  const { page } = tour;
  const { product, variant } = pick(tour.products, (p, v) => /^(腾讯Q币直充|QQ音乐豪华绿钻直充|腾讯视频VIP直充|QQ阅读包月会员直充)/.test(p.name) && v.unitRule.min === 1 && purchasable(p, v));
  await closeOverlays(page);
  await openProduct(page, product);
  await variantRow(page, variant).getByTestId('variant-buy').click();
  const modal = page.getByTestId('order-modal');
  await modal.getByTestId('order-form').waitFor({ timeout: MERCHANT_WAIT_MS });
  await modal.getByTestId('order-field-0-qq').fill('0123 4567');
  await modal.getByTestId('order-field-0-qq').blur();
  await modal.getByTestId('order-field-error').first().waitFor();
}

/** The merchant refuses for want of balance: the order's outcome explains it (422103 in words). */
async function refusedForBalance(tour: Tour): Promise<void> {
  await closeOverlays(tour.page);
  await tour.control.setBalance(tour.state.userId, '0.00');
  await openOrderFormOf(tour);
  const modal = tour.page.getByTestId('order-modal');
  await modal.getByTestId('order-submit').click();
  await modal.getByTestId('order-confirmation').waitFor();
  await placeOrder(tour);
  await modal.getByTestId('problem-alert').waitFor({ timeout: MERCHANT_WAIT_MS });
}

/**
 * An order the merchant answered HTTP 500 three times (the sandbox's serverErrorOn, contract §7.12): its
 * detail waits for the buyer's Retry with the merchant's request IDs. The fault is lifted after the stop
 * has reached that state; the order stays waiting (nothing is sent until a retry).
 */
async function merchantFailing(tour: Tour): Promise<void> {
  const { page, control } = tour;
  await closeOverlays(page);
  await control.faults({ serverErrorOn: ['orderCreate'] });
  try {
    await openOrderFormOf(tour);
    const modal = page.getByTestId('order-modal');
    await modal.getByTestId('order-submit').click();
    await modal.getByTestId('order-confirmation').waitFor();
    await placeOrder(tour);
    await modal.locator('[data-testid="order-outcome"][data-intent-status="merchant_failing"]').waitFor({ timeout: MERCHANT_WAIT_MS });
    await modal.getByTestId('order-view').click();
    await page.getByTestId('order-detail').getByTestId('order-server-failing').waitFor();
  } finally {
    await control.faults({ serverErrorOn: [] });
  }
  await settle(page);
}

/**
 * A product read over a minute ago, opened while the merchant answers slowly: the drawer reads it again
 * and meanwhile says how old the figures shown are (issue 24 point 6). The slowness ends by itself after
 * the stop (the next stops need none of it).
 */
async function productReading(tour: Tour): Promise<void> {
  const { page } = tour;
  await closeOverlays(page);
  const bought = tourPurchase(tour.products).product.productRef;
  const { product } = pick(tour.products, (p, v) => p.productType === 'card' && p.productRef !== bought && purchasable(p, v));
  const readAt = (await bridgeCall(page, 'catalog.product', { productRef: product.productRef })).syncedAt ?? 0;
  const wait = readAt + 62 - Date.now() / 1000;
  if (wait > 0) await page.waitForTimeout(wait * 1000);
  await tour.control.faults({ latencyMs: 8_000 });
  setTimeout(() => void tour.control.faults({ latencyMs: 0 }), 10_000);
  await goTo(page, 'catalog');
  await page.getByTestId('catalog-search').fill(product.name);
  await page.locator(`[data-testid="catalog-row"][data-product-ref="${product.productRef}"]`).click();
  await page.getByTestId('product-drawer').getByTestId('product-detail-loading').waitFor();
}

/** The catalog's search carried to the compare screen (one merchant here; two in compare-fallback.e2e). */
async function compareFromCatalog(tour: Tour): Promise<void> {
  const { page } = tour;
  await goTo(page, 'catalog');
  await page.getByTestId('catalog-search').fill(tourPurchase(tour.products).product.name);
  await page.getByTestId('catalog-compare').click();
  await page.getByTestId('compare-row').first().waitFor({ timeout: 30_000 });
}

/** Settings → order updates: webhooks to this computer (the health panel fills), then ngrok's fields. */
async function webhookSettings(tour: Tour): Promise<void> {
  const { page } = tour;
  await goTo(page, 'settings');
  const events = page.getByTestId('settings-events');
  // The options in the order of WEBHOOK_PATHS, whatever the language.
  const choose = async (path: WebhookPath): Promise<void> => {
    await events.getByTestId('settings-tunnel').click();
    await page.locator('.ant-select-item-option').nth(WEBHOOK_PATHS.indexOf(path)).click();
  };
  await choose('loopback');
  await events.getByTestId('settings-events-save').click();
  await page.getByTestId('events-health').getByText(/127\.0\.0\.1/).first().waitFor({ timeout: 30_000 });
  await choose('ngrok');
  await events.getByTestId('settings-ngrok-authtoken').waitFor();
}

/** A wrong API key typed in Settings: tested first, refused (401001 in words), the stored one kept. */
async function wrongKey(tour: Tour): Promise<void> {
  const { page } = tour;
  await goTo(page, 'settings');
  const connection = page.getByTestId('settings-connection');
  await connection.getByTestId('settings-new-key').fill(`AK_${'0'.repeat(32)}`);
  await connection.getByTestId('settings-new-key-save').click();
  await connection.getByTestId('problem-alert').waitFor({ timeout: MERCHANT_WAIT_MS });
}

/** The computer loses its network: the banner on every screen says so (last: the page stays offline). */
async function offlineBanner(tour: Tour): Promise<void> {
  await closeOverlays(tour.page);
  await goTo(tour.page, 'orders');
  await tour.page.context().setOffline(true);
  await tour.page.locator('[data-testid="status-banner"][data-state="offline"]').waitFor();
}

/** The sandbox's faults lifted: answers normal, the account active and open to every address. */
async function liftFaults(tour: Tour): Promise<void> {
  await tour.control.faults({ errorRate: 0, errorStatus: 500, latencyMs: 0, refuseConnections: false, tls: 'valid' });
  await tour.control.setSuspended(tour.state.userId, false);
  await tour.control.setIpAllowList(tour.state.userId, null);
}

/**
 * Reloads and asks again (the banner's "retry now", so no probe backoff is waited out) until the
 * header shows this state.
 */
async function reloadUntilState(page: Page, state: string): Promise<void> {
  const shown = page.locator(`[data-testid="online-indicator"][data-state="${state}"]`);
  const retry = page.getByTestId('status-banner').getByRole('button', { name: /重新检查|Check again/ });
  for (let attempt = 0; attempt < 30 && (await shown.count()) === 0; attempt++) {
    await page.reload();
    await shown.waitFor({ timeout: 2_000 }).catch(() => undefined);
    if ((await shown.count()) === 0 && (await retry.count()) > 0) await retry.click().catch(() => undefined);
  }
  await shown.waitFor({ timeout: MERCHANT_WAIT_MS });
}

/**
 * A connection state driven by the sandbox (connection-states.e2e.test.ts drives each in depth): the
 * previous stop's fault lifted and the app back online first (as in that test, so one state's probe
 * backoff never decides whether the next is seen), this one's set, and the page reloaded until the
 * header shows it.
 */
function connectionState(state: string, fault: (tour: Tour) => Promise<unknown>): (tour: Tour) => Promise<void> {
  return async (tour) => {
    const { page } = tour;
    await closeOverlays(page);
    await liftFaults(tour);
    await goTo(page, 'catalog');
    await reloadUntilState(page, 'online');
    await fault(tour);
    await reloadUntilState(page, state);
    await page.getByTestId('status-banner').waitFor();
  };
}

/** Every fault lifted, the catalog shown, and the header back to "online" (the state the others leave). */
async function onlineAgain(tour: Tour): Promise<void> {
  await closeOverlays(tour.page);
  await liftFaults(tour);
  await goTo(tour.page, 'catalog');
  await reloadUntilState(tour.page, 'online');
}

/** The spend report (issue 26: its time zone by name), not photographed for the docs. */
async function spendReport({ page }: Tour): Promise<void> {
  await closeOverlays(page);
  await page.getByTestId('nav-dashboard').click();
  await page.getByTestId('dashboard-time-zone').waitFor();
}

/** Settings → the merchant's CA: the dialog that replaces it (issue 26: every dialog scanned). */
async function caCertDialog({ page }: Tour): Promise<void> {
  await goTo(page, 'settings');
  await page.getByTestId('settings-ca-cert-edit').click();
  await page.getByTestId('settings-ca-cert-save').waitFor();
}

/** The header's merchant switcher, opened by its shortcut. */
async function openMerchantSwitcher({ page }: Tour): Promise<void> {
  await closeOverlays(page);
  await page.keyboard.press('Control+Alt+KeyM');
  await page.getByTestId('switcher-add').waitFor();
}

/** "Add merchant…": the name dialog, sent empty so it shows what it refuses. */
async function openAddMerchant({ page }: Tour): Promise<void> {
  await page.getByTestId('switcher-add').click();
  await page.getByTestId('profile-name-ok').click();
  await page.getByTestId('profile-name-error').waitFor();
}

/** A day in this machine's zone (where core runs: reconciliation's days), offset from today. */
function localDay(offset: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Reconciliation of a day, waited to its headline: today (the tour's orders, the balance read since
 * the connect: checked) or yesterday (no balance read before it began: the balance not checked).
 */
function reconcileDay(offset: number, status: 'clean' | 'notChecked' | null): (tour: Tour) => Promise<void> {
  return async ({ page }) => {
    await closeOverlays(page);
    await page.getByTestId('nav-reconcile').click();
    await page.getByTestId('reconcile-screen').waitFor();
    await pickDay(page.getByTestId('reconcile-from'), localDay(offset));
    await pickDay(page.getByTestId('reconcile-to'), localDay(offset));
    await page.getByTestId('reconcile-run').click();
    const headline = page.locator(`[data-testid="reconcile-headline"]${status === null ? '' : `[data-status="${status}"]`}`);
    await page.getByTestId('reconcile-report').getByText(`${localDay(offset)} 至 ${localDay(offset)}`).or(page.getByTestId('reconcile-report').getByText(`${localDay(offset)} to ${localDay(offset)}`)).first().waitFor({ timeout: MERCHANT_WAIT_MS });
    await headline.waitFor({ timeout: MERCHANT_WAIT_MS });
  };
}

/** The reconciliation's date box open: antd's calendar in the app's language (issue 26). */
async function openReconcilePicker({ page }: Tour): Promise<void> {
  await closeOverlays(page);
  await page.getByTestId('nav-reconcile').click();
  await page.getByTestId('reconcile-from').click();
  await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').waitFor();
}

/** A second merchant named: its connect screen, with the way back to the first. */
async function addSecondMerchant({ page }: Tour): Promise<void> {
  // The stop before took this tab offline: back online to reach the host.
  await page.context().setOffline(false);
  await closeOverlays(page);
  await page.keyboard.press('Control+Alt+KeyM');
  await page.getByTestId('switcher-add').click();
  await page.getByTestId('profile-name-input').fill('第二个商户');
  await page.getByTestId('profile-name-ok').click();
  await page.getByTestId('new-merchant-back').waitFor();
}

/** Back to the first merchant; the second one's remove dialog (nothing open: the name to type). */
async function removeSecondMerchantDialog({ page }: Tour): Promise<void> {
  await page.getByTestId('new-merchant-back').click();
  await page.getByTestId('profile-switcher').waitFor();
  await goTo(page, 'settings');
  await page.locator('[data-testid="merchant-row"][data-profile-id="p2"]').getByTestId('merchant-remove').click();
  await page.getByTestId('profile-remove-name').waitFor();
}

export const TOUR_STOPS: readonly TourStop[] = [
  { name: 'connect', photo: 'zh-CN', open: async ({ page }) => page.getByTestId('connect-screen').waitFor() },
  { name: 'connect-success', open: async ({ page }) => connectDemo(page) },
  {
    name: 'settings',
    photo: 'all',
    open: async (tour) => {
      await tour.page.getByTestId('connect-continue').click();
      await ensureCatalog(tour.page);
      await goTo(tour.page, 'settings');
      tour.state.userId = ((await tour.page.getByTestId('settings-user-id').textContent()) ?? '').trim();
    },
  },
  { name: 'merchant-switcher', photo: 'zh-CN', open: openMerchantSwitcher },
  { name: 'merchant-add', open: openAddMerchant },
  { name: 'catalog', photo: 'all', open: async ({ page }) => goTo(page, 'catalog').then(() => ensureCatalog(page)) },
  { name: 'compare', open: compareFromCatalog },
  { name: 'product-drawer', photo: 'all', open: async (tour) => void (await openProduct(tour.page, tourPurchase(tour.products).product)) },
  { name: 'order-form', photo: 'all', open: openOrderFormOf },
  { name: 'order-confirmation', photo: 'zh-CN', open: async ({ page }) => page.getByTestId('order-submit').click().then(() => page.getByTestId('order-confirmation').waitFor()) },
  { name: 'order-outcome', open: placeOrder },
  { name: 'order-detail', photo: 'all', open: openOrderDetail },
  { name: 'case-open', photo: 'zh-CN', open: openCaseForm },
  { name: 'case-chat', photo: 'zh-CN', open: openCaseChat },
  { name: 'aftersales', photo: 'zh-CN', open: async ({ page }) => goTo(page, 'aftersales').then(() => page.getByTestId('case-row').first().waitFor()) },
  { name: 'orders', photo: 'zh-CN', open: async ({ page }) => goTo(page, 'orders').then(() => page.getByTestId('order-row').first().waitFor()) },
  { name: 'dashboard', open: spendReport },
  // Today's books (the tour's orders, an after-sales case moves no money) and a day never read.
  { name: 'reconcile-checked', photo: 'all', open: reconcileDay(0, null) },
  { name: 'reconcile-not-checked', photo: 'all', open: reconcileDay(-1, 'notChecked') },
  { name: 'reconcile-date-picker', photo: 'all', open: openReconcilePicker },
  { name: 'vault-reveal', photo: 'all', open: revealCard },
  { name: 'export-dialog', photo: 'zh-CN', open: openExport },
  // The TXT for a shop import: its lines and the plain-text warning (issue 25).
  { name: 'export-dialog-txt', photo: 'zh-CN', open: async ({ page }) => page.getByTestId('export-format-txt').click().then(() => page.getByTestId('export-txt-lines-cardNoPassword').click()) },
  { name: 'audit-log', photo: 'zh-CN', open: async ({ page }) => closeOverlays(page).then(() => page.getByTestId('nav-audit').click()).then(() => page.getByTestId('audit-row').first().waitFor()) },
  { name: 'batch-duplicates', photo: 'zh-CN', open: batchDuplicates },
  { name: 'order-paste-options', photo: 'zh-CN', open: pasteOptionLabels },
  { name: 'batch-invalid-bytes', photo: 'zh-CN', open: batchInvalidBytes },
  { name: 'topup-confirmation', open: topupConfirmation },
  { name: 'order-field-format', photo: 'all', open: fieldFormatError },
  { name: 'problem-balance', photo: 'zh-CN', open: refusedForBalance },
  { name: 'order-merchant-failing', photo: 'all', open: merchantFailing },
  { name: 'product-reading', photo: 'all', open: productReading },
  { name: 'settings-webhooks', photo: 'zh-CN', open: webhookSettings },
  // Runs in the background (issue 27): the desktop settings, said to be the desktop app's in the browser.
  { name: 'settings-background', photo: 'all', open: async ({ page }) => goTo(page, 'settings').then(() => page.getByTestId('settings-background').scrollIntoViewIfNeeded()) },
  { name: 'settings-ca-dialog', open: caCertDialog },
  { name: 'problem-key-refused', open: wrongKey },
  { name: 'state-online', photo: 'all', open: onlineAgain },
  { name: 'state-degraded', photo: 'all', open: connectionState('degraded', ({ control }) => control.faults({ errorRate: 1, errorStatus: 503 })) },
  // The merchant answers, but every answer takes 10 s: "merchant struggling", seen within seconds (issue 24).
  { name: 'state-slow', photo: 'all', open: connectionState('degraded', ({ control }) => control.faults({ latencyMs: 10_000 })) },
  { name: 'state-offline', photo: 'all', open: connectionState('offline', ({ control }) => control.faults({ refuseConnections: true })) },
  { name: 'state-certificate', photo: 'zh-CN', open: connectionState('certificate', ({ control }) => control.faults({ tls: 'untrusted' })) },
  { name: 'state-suspended', photo: 'zh-CN', open: connectionState('suspended', ({ control, state }) => control.setSuspended(state.userId, true)) },
  { name: 'state-ip-denied', photo: 'zh-CN', open: connectionState('ipDenied', ({ control, state }) => control.setIpAllowList(state.userId, ['203.0.113.7'])) },
  // Last of the merchant's states: the rotated key is not given back to the app.
  { name: 'state-key-refused', photo: 'zh-CN', open: connectionState('keyRefused', ({ control, state }) => control.rotateKey(state.userId)) },
  { name: 'banner-offline', open: async (tour) => liftFaults(tour).then(() => offlineBanner(tour)) },
  // Last: a second merchant (nothing after this stop expects the demo merchant on screen).
  { name: 'merchant-new-connect', open: addSecondMerchant },
  { name: 'merchant-remove', photo: 'zh-CN', open: removeSecondMerchantDialog },
];

/** Walks the stops in order, calling `at` once each has settled. */
export async function walkTour(tour: Tour, at: (stop: TourStop) => Promise<void>, stops: readonly TourStop[] = TOUR_STOPS): Promise<void> {
  for (const stop of stops) {
    await stop.open(tour);
    await settle(tour.page);
    await at(stop);
  }
}
