// Named operations on batches and batch_rows (0020), and the one intent move only a batch retry makes:
// rejected → queued under the same ref (contract §13.5: a refused create stored nothing, §7.1).
import type { Database } from 'better-sqlite3';
import type { BatchColumnMap } from '../../shared/batch-file';
import type { OptionLabels } from '../../shared/purchase-option-labels';
import { storedEntriesJson } from '../orders/stored-entries';

export interface StoredBatch {
  readonly batchId: string;
  readonly draftRef: string;
  readonly productRef: number;
  readonly variantRef: number;
  readonly fileName: string;
  readonly fileSha256: string;
  readonly fileFormat: 'csv' | 'xlsx';
  readonly mapping: BatchColumnMap;
  readonly defaultUnits: number | null;
  readonly confirmedUnitPriceFen: number;
  readonly rowCount: number;
  readonly createdAt: number;
}

interface BatchRow {
  batch_id: string;
  draft_ref: string;
  product_ref: number;
  variant_ref: number;
  file_name: string;
  file_sha256: string;
  file_format: 'csv' | 'xlsx';
  map_json: string;
  default_units: number | null;
  confirmed_unit_price_fen: number;
  row_count: number;
  created_at: number;
}

const toBatch = (row: BatchRow): StoredBatch => ({
  batchId: row.batch_id,
  draftRef: row.draft_ref,
  productRef: row.product_ref,
  variantRef: row.variant_ref,
  fileName: row.file_name,
  fileSha256: row.file_sha256,
  fileFormat: row.file_format,
  mapping: JSON.parse(row.map_json) as BatchColumnMap,
  defaultUnits: row.default_units,
  confirmedUnitPriceFen: row.confirmed_unit_price_fen,
  rowCount: row.row_count,
  createdAt: row.created_at,
});

export function getBatch(db: Database, batchId: string): StoredBatch | null {
  const row = db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE batch_id = ?').get(batchId);
  return row === undefined ? null : toBatch(row);
}

export function batchOfDraft(db: Database, draftRef: string): StoredBatch | null {
  const row = db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE draft_ref = ?').get(draftRef);
  return row === undefined ? null : toBatch(row);
}

export function insertBatch(db: Database, batch: StoredBatch): void {
  db.prepare(
    `INSERT INTO batches (batch_id, draft_ref, product_ref, variant_ref, file_name, file_sha256, file_format, map_json, default_units,
       confirmed_unit_price_fen, row_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    batch.batchId,
    batch.draftRef,
    batch.productRef,
    batch.variantRef,
    batch.fileName,
    batch.fileSha256,
    batch.fileFormat,
    JSON.stringify(batch.mapping),
    batch.defaultUnits,
    batch.confirmedUnitPriceFen,
    batch.rowCount,
    batch.createdAt,
  );
}

export function insertBatchRow(db: Database, batchId: string, rowNumber: number, clientOrderRef: string, now: number): void {
  db.prepare('INSERT INTO batch_rows (batch_id, row_number, client_order_ref, created_at) VALUES (?, ?, ?, ?)').run(batchId, rowNumber, clientOrderRef, now);
}

/** The row's current ref is retired: a retry gave the row a new one (the old stays in the history). */
export function retireBatchRow(db: Database, batchId: string, clientOrderRef: string, now: number): boolean {
  return db.prepare('UPDATE batch_rows SET retired_at = ? WHERE batch_id = ? AND client_order_ref = ? AND retired_at IS NULL').run(now, batchId, clientOrderRef).changes === 1;
}

/** One current row of a batch with its intent and (once the merchant has it) its order. */
export interface BatchRowState {
  readonly rowNumber: number;
  readonly clientOrderRef: string;
  readonly intentStatus: string;
  readonly units: number;
  readonly confirmedUnitPriceFen: number | null;
  readonly guardUnitPriceFen: number | null;
  readonly lastErrorCode: string | null;
  readonly lastErrorMessage: string | null;
  readonly attempts: number;
  readonly lastAttemptAt: number | null;
  readonly state: string | null;
  readonly platformOrderRef: string | null;
  readonly totalFen: number | null;
  readonly failureReason: string | null;
  /** Refs this row had before (retired by a retry), oldest first. */
  readonly earlierRefs: readonly string[];
}

interface RowStateRow {
  row_number: number;
  client_order_ref: string;
  status: string;
  units: number;
  confirmed_unit_price_fen: number | null;
  guard_unit_price_fen: number | null;
  last_error_code: string | null;
  last_error_message: string | null;
  attempts: number;
  last_attempt_at: number | null;
  state: string | null;
  platform_order_ref: string | null;
  total_fen: number | null;
  failure_reason: string | null;
  earlier_refs: string | null;
}

export function batchRowStates(db: Database, batchId: string): BatchRowState[] {
  return db
    .prepare<[string], RowStateRow>(
      `SELECT br.row_number, br.client_order_ref, i.status, i.units, i.confirmed_unit_price_fen, i.guard_unit_price_fen,
              i.last_error_code, i.last_error_message, i.attempts, i.last_attempt_at,
              o.state, o.platform_order_ref, o.total_fen, o.failure_reason,
              (SELECT group_concat(old.client_order_ref, ' ') FROM (SELECT client_order_ref FROM batch_rows
                 WHERE batch_id = br.batch_id AND row_number = br.row_number AND retired_at IS NOT NULL ORDER BY created_at, rowid) old) AS earlier_refs
         FROM batch_rows br
         JOIN order_intents i ON i.client_order_ref = br.client_order_ref
         LEFT JOIN orders o ON o.client_order_ref = br.client_order_ref
        WHERE br.batch_id = ? AND br.retired_at IS NULL
        ORDER BY br.row_number`,
    )
    .all(batchId)
    .map((row) => ({
      rowNumber: row.row_number,
      clientOrderRef: row.client_order_ref,
      intentStatus: row.status,
      units: row.units,
      confirmedUnitPriceFen: row.confirmed_unit_price_fen,
      guardUnitPriceFen: row.guard_unit_price_fen,
      lastErrorCode: row.last_error_code,
      lastErrorMessage: row.last_error_message,
      attempts: row.attempts,
      lastAttemptAt: row.last_attempt_at,
      state: row.state,
      platformOrderRef: row.platform_order_ref,
      totalFen: row.total_fen,
      failureReason: row.failure_reason,
      earlierRefs: row.earlier_refs === null ? [] : row.earlier_refs.split(' '),
    }));
}

/**
 * rejected → queued, same ref, with the row's content checked again (the entries were cleared when it
 * was rejected). Only a batch retry does this, and only for a refusal that stored nothing.
 */
export function requeueRejected(
  db: Database,
  clientOrderRef: string,
  content: { units: number; purchaseSchemaRevision: number | null; purchaseEntries: Record<string, string>[]; optionLabels: OptionLabels[] },
  now: number,
): boolean {
  return (
    db
      .prepare(
        `UPDATE order_intents SET status = 'queued', units = ?, purchase_schema_revision = ?, purchase_entries_json = ?,
           next_attempt_at = ?, last_error_code = NULL, last_error_message = NULL, resolved_at = NULL, updated_at = ?
         WHERE client_order_ref = ? AND status = 'rejected'`,
      )
      .run(
        content.units,
        content.purchaseSchemaRevision,
        storedEntriesJson(content.purchaseEntries, content.optionLabels),
        now,
        now,
        clientOrderRef,
      ).changes === 1
  );
}
