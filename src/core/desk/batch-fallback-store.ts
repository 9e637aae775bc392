// Which batches a link's fallback rule sent to another merchant (desk 0002 batch_fallbacks), so that
// batch.status keeps saying so after the placing answer is gone. Written once, when the batch is made.
import type { Database } from 'better-sqlite3';
import type { BatchFallbackView } from '../../shared/ipc/views/batch';
import { OFFER_REASONS } from '../../shared/ipc/views/compare';
import type { MerchantTag } from '../../shared/ipc/views/profiles';

interface FallbackRow {
  from_profile_id: string;
  from_name: string;
  to_profile_id: string;
  to_name: string;
  reason: string;
  limit_fen: number;
  product_ref: number;
  variant_ref: number;
}

export function recordBatchFallback(db: Database, batchId: string, fallback: BatchFallbackView, now: number): void {
  db.prepare(
    `INSERT OR IGNORE INTO batch_fallbacks (batch_id, from_profile_id, from_name, to_profile_id, to_name, reason, limit_fen, product_ref, variant_ref, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(batchId, fallback.from.profileId, fallback.from.name, fallback.to.profileId, fallback.to.name, fallback.reason, fallback.limitFen, fallback.productRef, fallback.variantRef, now);
}

/** The batch's fallback, merchants named as they are called now (`nameOf` null: the profile is gone). */
export function batchFallback(db: Database, batchId: string, nameOf: (profileId: string) => string | null): BatchFallbackView | null {
  const row = db.prepare<[string], FallbackRow>('SELECT * FROM batch_fallbacks WHERE batch_id = ?').get(batchId);
  if (row === undefined) return null;
  const reason = OFFER_REASONS.find((known) => known === row.reason);
  // Only this code writes the row; a reason it does not know is not shown as one.
  if (reason === undefined) return null;
  const tag = (profileId: string, name: string): MerchantTag => ({ profileId, name: nameOf(profileId) ?? name });
  return { from: tag(row.from_profile_id, row.from_name), to: tag(row.to_profile_id, row.to_name), reason, limitFen: row.limit_fen, productRef: row.product_ref, variantRef: row.variant_ref };
}
