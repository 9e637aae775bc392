// Duplicates caught before money moves (issue 24, contract §13.8), one home for the app and the CLI:
// - rows of one file with the same cleaned entries (the form's cleaning: "138 0013 8000" is
//   "13800138000") are duplicates of the first such row; rows without entries (card codes) never are;
// - a file already placed: a batch with the same bytes (sha256, any time), or a batch of the same
//   product within 7 days whose rows are the file's rows. Earlier rows are read through the stores the
//   app already keeps (entries of an unsent intent, the sealed entries of an accepted one, opened by
//   the vault's cipher); a row whose entries were cleared (refused or withdrawn) matches any row.
// Nothing here stores an account: keys live in memory for one comparison.
import type { Database } from 'better-sqlite3';
import type { BatchDuplicateRowView, BatchPlacedBeforeView } from '../../shared/ipc/views/batch';
import { IntentStateError } from '../orders/order-errors';
import { readStoredEntries } from '../orders/stored-entries';
import type { BatchRowPreview } from './batch-preview';

/** How far back a re-typed file with the same rows is looked for (seconds). */
export const SAME_ROWS_WINDOW_S = 7 * 86_400;

type Entries = readonly Record<string, string>[];

/** Opens an accepted row's sealed entries; null when they cannot be read (key missing, damaged). */
export type OpenSealedEntries = (clientOrderRef: string, sealed: Buffer) => Record<string, string>[] | null;

/** The same text for the same entries whatever the order of their fields. */
function entriesKey(entries: Entries): string {
  return JSON.stringify(entries.map((group) => Object.keys(group).sort().map((field) => [field, group[field] ?? ''])));
}

const hasEntries = (entries: Entries): boolean => entries.some((group) => Object.values(group).some((value) => value !== ''));
const rowKey = (units: number, entries: Entries): string => `${units}|${entriesKey(entries)}`;

/** Every passing row whose entries equal an earlier passing row's, with that row's number. */
export function duplicateRows(rows: readonly BatchRowPreview[]): BatchDuplicateRowView[] {
  const first = new Map<string, number>();
  const out: BatchDuplicateRowView[] = [];
  for (const row of rows) {
    if (row.purchaseEntries === null || !hasEntries(row.purchaseEntries)) continue;
    const key = entriesKey(row.purchaseEntries);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, row.rowNumber);
    else out.push({ rowNumber: row.rowNumber, sameAs: earlier });
  }
  return out;
}

interface BatchHead {
  batch_id: string;
  file_name: string;
  file_sha256: string;
  product_ref: number;
  created_at: number;
}

interface EarlierRow {
  client_order_ref: string;
  units: number;
  purchase_entries_json: string | null;
  recharged_entries_sealed: Buffer | null;
  product_type: string;
}

/** The earlier batch's current rows as keys; null for a row whose entries are gone. */
function earlierKeys(db: Database, batchId: string, open: OpenSealedEntries): (string | null)[] {
  const rows = db
    .prepare<[string], EarlierRow>(
      `SELECT i.client_order_ref, i.units, i.purchase_entries_json, i.recharged_entries_sealed, i.product_type
         FROM batch_rows br JOIN order_intents i ON i.client_order_ref = br.client_order_ref
        WHERE br.batch_id = ? AND br.retired_at IS NULL`,
    )
    .all(batchId);
  return rows.map((row) => {
    if (row.purchase_entries_json !== null) return rowKey(row.units, readStoredEntries(row.purchase_entries_json).groups);
    if (row.recharged_entries_sealed !== null) {
      const opened = open(row.client_order_ref, row.recharged_entries_sealed);
      return opened === null ? null : rowKey(row.units, opened);
    }
    // A card row never has entries; a top-up row whose entries were cleared is unknown.
    return row.product_type === 'card' ? rowKey(row.units, []) : null;
  });
}

/** Same distinct rows, an unknown earlier row standing for any one of the file's rows. */
function sameRows(fileKeys: ReadonlySet<string>, earlier: readonly (string | null)[]): boolean {
  if (fileKeys.size === 0 || earlier.length === 0) return false;
  const known = new Set(earlier.filter((key): key is string => key !== null));
  const unknown = earlier.length - earlier.filter((key) => key !== null).length;
  for (const key of known) if (!fileKeys.has(key)) return false;
  let missing = 0;
  for (const key of fileKeys) if (!known.has(key)) missing += 1;
  return missing <= unknown;
}

export interface PlacedBeforeInput {
  readonly productRef: number;
  readonly fileSha256: string;
  /** The file's passing rows (units and cleaned entries). */
  readonly rows: readonly BatchRowPreview[];
  /** Now, seconds. */
  readonly now: number;
}

/** Earlier batches of this file's content, newest first. Synchronous: it runs inside placing's transaction too. */
export function placedBefore(db: Database, open: OpenSealedEntries, input: PlacedBeforeInput): BatchPlacedBeforeView[] {
  const view = (head: BatchHead, match: 'sameFile' | 'sameRows'): BatchPlacedBeforeView => ({ batchId: head.batch_id, fileName: head.file_name, productRef: head.product_ref, placedAt: head.created_at, match });
  const found = db.prepare<[string], BatchHead>('SELECT batch_id, file_name, file_sha256, product_ref, created_at FROM batches WHERE file_sha256 = ? ORDER BY created_at DESC, rowid DESC').all(input.fileSha256).map((head) => view(head, 'sameFile'));
  const fileKeys = new Set(input.rows.filter((row) => row.purchaseEntries !== null && row.units !== null).map((row) => rowKey(row.units ?? 0, row.purchaseEntries ?? [])));
  const recent = db
    .prepare<[number, number, string], BatchHead>(
      'SELECT batch_id, file_name, file_sha256, product_ref, created_at FROM batches WHERE product_ref = ? AND created_at >= ? AND file_sha256 <> ? ORDER BY created_at DESC, rowid DESC',
    )
    .all(input.productRef, input.now - SAME_ROWS_WINDOW_S, input.fileSha256);
  for (const head of recent) if (sameRows(fileKeys, earlierKeys(db, head.batch_id, open))) found.push(view(head, 'sameRows'));
  return found.sort((a, b) => b.placedAt - a.placedAt);
}

/** What the buyer decided about the duplicates the preview named. */
export interface DuplicateDecision {
  /** Duplicate rows to order anyway. */
  readonly keepRows: readonly number[];
  /** Duplicate rows not to order. */
  readonly skipRows: readonly number[];
  /** Earlier batches the buyer saw named and confirmed placing this file again after. */
  readonly acceptedBatches: readonly string[];
}

export const NO_DECISION: DuplicateDecision = { keepRows: [], skipRows: [], acceptedBatches: [] };

/** Placing refused: a duplicate row or an earlier batch of this file the buyer did not confirm. Nothing was written. */
export class DuplicatesNotConfirmedError extends IntentStateError {
  constructor(
    readonly rows: readonly BatchDuplicateRowView[],
    readonly batches: readonly BatchPlacedBeforeView[],
  ) {
    const parts = [
      ...(rows.length === 0 ? [] : [`rows ${rows.map((row) => `${row.rowNumber} (same as row ${row.sameAs})`).join(', ')} repeat an earlier row`]),
      ...batches.map((batch) => `this file's ${batch.match === 'sameFile' ? 'bytes were' : 'rows were'} already placed as batch ${batch.batchId} (${batch.fileName}) at ${new Date(batch.placedAt * 1000).toISOString()}`),
    ];
    super(`duplicates not confirmed, nothing was written: ${parts.join('; ')}`);
  }
}

/** Throws unless every duplicate row is kept or skipped and every earlier batch was confirmed. */
export function checkDecision(rows: readonly BatchDuplicateRowView[], batches: readonly BatchPlacedBeforeView[], decision: DuplicateDecision): void {
  const decided = new Set([...decision.keepRows, ...decision.skipRows]);
  const accepted = new Set(decision.acceptedBatches);
  const openRows = rows.filter((row) => !decided.has(row.rowNumber));
  const openBatches = batches.filter((batch) => !accepted.has(batch.batchId));
  if (openRows.length > 0 || openBatches.length > 0) throw new DuplicatesNotConfirmedError(openRows, openBatches);
}
