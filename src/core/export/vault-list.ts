// The vault as the buyer works in it: every card, filtered and paged, masked (the last digits of the
// number, never the password). Masking opens the number in main and keeps only its last four
// characters, so nothing usable leaves; no audit row is needed for that.
import type { VaultList, VaultListQuery } from '../../shared/ipc/views/vault';
import type { VaultReader } from '../vault/vault-reader';
import { isRefundMark } from '../vault/refund-mark';
import type { CardQueries } from './card-selection';

export function listVault(queries: CardQueries, vault: VaultReader, query: VaultListQuery): VaultList {
  const filter = { selection: query.selection, used: query.used, exported: query.exported, text: query.text, refund: query.refund };
  const total = queries.summary(filter).count;
  const rows = queries.page(filter, query.offset, query.limit).map((row) => ({
    clientOrderRef: row.client_order_ref,
    platformOrderRef: row.platform_order_ref,
    seq: row.seq,
    productRef: row.product_ref,
    productName: row.product_name,
    variantTitle: row.variant_title,
    cardNoMasked: vault.maskSealedCardNo(row.client_order_ref, row.seq, row.card_no_sealed),
    hasPassword: row.has_password === 1,
    priceFen: row.unit_price_fen,
    orderedAt: row.ordered_at,
    expiresAt: row.expires_at,
    receivedAt: row.received_at,
    usedAt: row.used_at,
    exportedAt: row.exported_at,
    refundMark: isRefundMark(row.refund_mark) ? row.refund_mark : null,
  }));
  return { total, rows };
}
