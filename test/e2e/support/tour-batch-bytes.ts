// The screen tour's stop for a batch CSV with invalid bytes (issue 25): a GB18030 file with one cut
// account dropped on a card's batch dialog, refused with where the bytes are and the choice to mark them.
import { closeOverlays, MERCHANT_WAIT_MS, openProduct, pick, variantRow } from './app-steps';
import { purchasable } from './sandbox-control';
import type { Tour } from './screen-tour';
import { gb18030 } from '../../core/batch/batch-fixtures';

/** The file: the third row's account is 玩家 and a lone GB18030 lead byte. */
export const BROKEN_GB_CSV = Buffer.from([...gb18030('数量,游戏账号\r\n1,玩家甲\r\n1,玩家'), 0xcd, ...gb18030('\r\n2,玩家丙\r\n')]);

export async function batchInvalidBytes(tour: Tour): Promise<void> {
  const { page } = tour;
  const { product, variant } = pick(tour.products, (p, v) => p.productType === 'card' && v.unitRule.min === 1 && v.unitRule.step === 1 && purchasable(p, v));
  await closeOverlays(page);
  await openProduct(page, product);
  await variantRow(page, variant).getByTestId('variant-batch').click();
  const modal = page.getByTestId('batch-modal');
  await modal.locator('[data-testid="batch-pick"] input[type="file"]').setInputFiles({ name: '玩家名单.csv', mimeType: 'text/csv', buffer: BROKEN_GB_CSV });
  await modal.getByTestId('batch-mark-invalid-rows').waitFor({ timeout: MERCHANT_WAIT_MS });
}
