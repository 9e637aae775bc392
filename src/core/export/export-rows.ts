// Builds the export table from selected vault rows: the only place the export turns sealed card
// secrets into text, in main, in memory, for the writer that encrypts them next. Nothing here logs,
// and nothing here keeps a secret past the table the caller drops once the file is written.
import type { ExportLanguage } from '../../shared/ipc/views/vault';
import type { RevealedCard } from '../vault/vault-reader';
import type { SealedCardRow } from './card-selection';
import { isRefundMark } from '../vault/refund-mark';
import { exportHeaders, exportSheetName, refundWord, unnumberedWord } from './export-columns';
import { codeCell, type ExportCell, type ExportTable } from './export-table';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** Opens one sealed row (the vault reader's openForAuditedCaller: the export audits the whole file). */
export type CardOpener = (row: { clientOrderRef: string; seq: number; cardNoSealed: Buffer; cardPasswordSealed: Buffer | null; expiresAt: number | null }) => RevealedCard;

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * Local wall-clock time, `YYYY-MM-DD HH:mm:ss`: what a spreadsheet user reads and sorts, without the
 * ambiguity of a locale's date order. The host's time zone is the buyer's.
 */
function formatExportTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * Cards opened between turns of the event loop: opening 10,000 cards takes a few hundred ms of
 * synchronous crypto, and the same thread acknowledges webhooks within the sender's 3 s.
 */
const OPEN_SLICE = 250;

export async function buildExportTable(rows: readonly SealedCardRow[], open: CardOpener, language: ExportLanguage): Promise<ExportTable> {
  const table: ExportCell[][] = [];
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % OPEN_SLICE === 0) await yieldToEventLoop();
    const card = open({
      clientOrderRef: row.client_order_ref,
      seq: row.seq,
      cardNoSealed: row.card_no_sealed,
      cardPasswordSealed: row.card_password_sealed,
      expiresAt: row.expires_at,
    });
    table.push([
      row.product_name ?? `#${row.product_ref}`,
      row.variant_title,
      row.platform_order_ref === null ? unnumberedWord(language) : codeCell(row.platform_order_ref),
      codeCell(card.cardNo),
      card.cardPassword === null || card.cardPassword === '' ? null : codeCell(card.cardPassword),
      card.expiresAt === null ? null : formatExportTime(card.expiresAt),
      row.ordered_at === null ? null : formatExportTime(row.ordered_at),
      row.unit_price_fen === null ? null : { fen: row.unit_price_fen },
      isRefundMark(row.refund_mark) ? refundWord(row.refund_mark, language) : null,
      codeCell(row.client_order_ref),
    ]);
  }
  return { sheetName: exportSheetName(language), headers: exportHeaders(language), rows: table };
}
