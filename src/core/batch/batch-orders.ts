// Batch orders from a file (issue 16, contract §13), the one path for the app and the CLI:
// preview (read the file, map, check every row by the form's rules), place (every valid row one
// intent with its own clientOrderRef, the whole batch in one transaction before anything is sent,
// idempotent by the confirm step's draftRef), status (per row, with an ETA from the quota), retry of
// the failed rows only (same ref where the merchant stored nothing, else a new ref linked to the same
// row), a new price confirmed for the rows the guard parked, and the results next to the file's rows.
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { BatchColumnMap, InvalidBytesChoice } from '../../shared/batch-file';
import type { BatchPreviewView, BatchRowPhase, BatchStatusView } from '../../shared/ipc/views/batch';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import { optionLabelsOf } from '../../shared/purchase-option-labels';
import type { SecretAwareLogger } from '../logging/logger';
import { newClientRef } from '../orders/client-ref';
import { IntentStateError, PriceUnknownError } from '../orders/order-errors';
import { getIntent, insertIntent } from '../orders/order-intent-store';
import { cachedUnitPriceFen, type OrderIntents } from '../orders/order-intents';
import type { OrderOutbox } from '../orders/order-outbox';
import type { OrderPlacement } from '../orders/order-placement';
import type { Clock } from '../platform/clock';
import type { VaultReader } from '../vault/vault-reader';
import { checkDecision, duplicateRows, NO_DECISION, placedBefore, type DuplicateDecision, type OpenSealedEntries } from './batch-duplicates';
import { batchEtaMs } from './batch-eta';
import { readBatchTable, type BatchTable } from './batch-file-read';
import { chooseMapping, mappingProblems, mappingTargets, rememberedMapping, rememberMapping } from './batch-mapping';
import { previewBatch, type BatchPreview, type BatchRowError, type BatchRowPreview } from './batch-preview';
import { batchOfDraft, batchRowStates, getBatch, insertBatch, insertBatchRow, requeueRejected, retireBatchRow, type BatchRowState, type StoredBatch } from './batch-store';

export interface BatchDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: SecretAwareLogger;
  readonly placement: Pick<OrderPlacement, 'templateForForm'>;
  readonly intents: Pick<OrderIntents, 'confirmIntent'>;
  readonly outbox: Pick<OrderOutbox, 'poke'>;
  /** Opens an accepted row's sealed entries, to compare a file with the batches placed before (§13.8). */
  readonly vault: Pick<VaultReader, 'openRechargedEntries'>;
}

export interface BatchFile {
  readonly fileName: string;
  readonly bytes: Uint8Array;
}

export interface PreviewRequest {
  readonly file: BatchFile;
  readonly productRef: number;
  readonly variantRef: number;
  readonly mapping: BatchColumnMap | null;
  readonly defaultUnits?: number;
  /** The price to total with; the cached price when absent. */
  readonly unitPriceFen?: number;
  /** A CSV with bytes invalid in its encoding: refused (absent), or its rows holding them marked (§13.1). */
  readonly invalidBytes?: InvalidBytesChoice;
}

export interface PlaceRequest extends PreviewRequest {
  readonly mapping: BatchColumnMap;
  readonly unitPriceFen: number;
  readonly confirmedTotalFen: number;
  readonly confirmedRows: number;
  readonly draftRef: string;
  /** The buyer's answer to the duplicates the preview named (§13.8); none when absent. */
  readonly duplicates?: DuplicateDecision;
}

/** A preview with what placing needs beside the view (the table and each row's cleaned entries). */
export interface PreparedBatch {
  readonly view: BatchPreviewView;
  readonly table: BatchTable;
  readonly template: PurchaseTemplate;
  readonly preview: BatchPreview;
}

const seconds = (clock: Clock): number => Math.floor(clock.nowMs() / 1000);
export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The vault's opener, a row it cannot open (key missing, damaged) read as unknown. */
function sealedOpener(deps: Pick<BatchDeps, 'vault'>): OpenSealedEntries {
  return (clientOrderRef, sealed) => {
    try {
      return deps.vault.openRechargedEntries(clientOrderRef, sealed)?.groups ?? null;
    } catch {
      return null;
    }
  };
}

type ViewExtra = { mapping: BatchColumnMap; source: 'given' | 'remembered' | 'guessed'; unitPriceFen: number; defaultUnits: number; sha: string; duplicates: BatchPreviewView['duplicates'] };

function viewOf(prepared: Omit<PreparedBatch, 'view'>, extra: ViewExtra): BatchPreviewView {
  const { table, template, preview } = prepared;
  const fields = new Map(template.purchaseFields.map((field) => [field.fieldRef, field]));
  return {
    format: table.format,
    encoding: table.encoding,
    header: [...table.header],
    mapping: { ...extra.mapping },
    mappingSource: extra.source,
    mappingProblems: mappingProblems(extra.mapping, table.header, template),
    targets: mappingTargets(template).map(({ target }) => {
      const field = fields.get(target);
      return { target, label: field?.label ?? '', required: field?.required ?? false, type: field?.type ?? 'units' };
    }),
    unitRule: { min: template.unitRule.min, max: template.unitRule.max, step: template.unitRule.step },
    entryMode: template.entryMode,
    defaultUnits: extra.defaultUnits,
    unitPriceFen: extra.unitPriceFen,
    fileSha256: extra.sha,
    rows: preview.rows.map((row) => ({ rowNumber: row.rowNumber, cells: [...row.cells], values: { ...row.values }, units: row.units, amountFen: row.amountFen, errors: row.errors.map(errorView), optionLabels: { ...row.optionLabels } })),
    totals: preview.totals,
    duplicates: extra.duplicates,
    ...(table.invalidBytes === undefined ? {} : { invalidBytes: { ...table.invalidBytes } }),
  };
}

/** A row's error as the view carries it (an OPTION error with the cell and the labels, §7.11; INVALID_BYTES with its line and column, §13.1). */
function errorView({ path, code, message, option, line, column }: BatchRowError): BatchPreviewView['rows'][number]['errors'][number] {
  return {
    path,
    code,
    message,
    ...(option === undefined ? {} : { option: { given: option.given, reason: option.reason, labels: [...option.labels] } }),
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
  };
}

/** Reads, maps and checks the file. Nothing is written but the template fetched when it was not cached. */
export async function prepareBatch(deps: BatchDeps, request: PreviewRequest): Promise<PreparedBatch> {
  const table = await readBatchTable(request.file.bytes, request.invalidBytes);
  const template = await deps.placement.templateForForm(request.productRef, request.variantRef);
  const unitPriceFen = request.unitPriceFen ?? cachedUnitPriceFen(deps.db, request.productRef, request.variantRef);
  if (unitPriceFen === null) throw new PriceUnknownError(request.productRef, request.variantRef);
  const { mapping, source } = chooseMapping(request.mapping, rememberedMapping(deps.db, request.productRef), table.header, template);
  const defaultUnits = request.defaultUnits ?? template.unitRule.min;
  const preview = previewBatch({ table, template, mapping, unitPriceFen, defaultUnits });
  const parts = { table, template, preview };
  const sha = sha256Hex(request.file.bytes);
  const good = preview.rows.filter((row) => row.purchaseEntries !== null);
  const duplicates = {
    rows: duplicateRows(preview.rows),
    placedBefore: placedBefore(deps.db, sealedOpener(deps), { productRef: request.productRef, fileSha256: sha, rows: good, now: seconds(deps.clock) }),
  };
  return { ...parts, view: viewOf(parts, { mapping, source, unitPriceFen, defaultUnits, sha, duplicates }) };
}

function sameBatch(batch: StoredBatch, request: PlaceRequest, sha: string): StoredBatch {
  const same = batch.productRef === request.productRef && batch.variantRef === request.variantRef && batch.confirmedUnitPriceFen === request.unitPriceFen && batch.fileSha256 === sha;
  if (!same) throw new IntentStateError(`this confirmation was already placed as batch ${batch.batchId} with another file or price; nothing new was written`);
  return batch;
}

function registerEntries(logger: SecretAwareLogger, entries: readonly Record<string, string>[]): void {
  for (const group of entries) for (const value of Object.values(group)) if (value !== '') logger.registerSecret(value);
}

function writeIntent(deps: BatchDeps, batchId: string, request: { productRef: number; variantRef: number; unitPriceFen: number }, template: PurchaseTemplate, row: BatchRowPreview, now: number): string {
  const clientOrderRef = newClientRef('o');
  insertIntent(
    deps.db,
    {
      clientOrderRef,
      batchId,
      productRef: request.productRef,
      variantRef: request.variantRef,
      productType: template.productType,
      units: row.units ?? 0,
      purchaseSchemaRevision: template.purchaseSchemaRevision,
      purchaseEntries: row.purchaseEntries ?? [],
      optionLabels: optionLabelsOf(template.purchaseFields, row.purchaseEntries ?? []),
      orderCallbackUrl: null,
      imageUrl: null,
      confirmedUnitPriceFen: request.unitPriceFen,
    },
    now,
  );
  insertBatchRow(deps.db, batchId, row.rowNumber, clientOrderRef, now);
  return clientOrderRef;
}

/**
 * Writes every valid row as an intent in one transaction (nothing is sent before it commits), or
 * answers the batch already written for this draftRef. Refused, writing nothing, when the file's
 * rows or total differ from what the buyer confirmed.
 */
export async function placeBatch(deps: BatchDeps, request: PlaceRequest): Promise<{ batchId: string; created: boolean }> {
  const { db, clock, logger } = deps;
  const sha = sha256Hex(request.file.bytes);
  const earlier = batchOfDraft(db, request.draftRef);
  if (earlier !== null) {
    logger.info('batch confirmation placed again: answering the batch already written', { batchId: earlier.batchId });
    return { batchId: sameBatch(earlier, request, sha).batchId, created: false };
  }
  const prepared = await prepareBatch(deps, request);
  const problems = mappingProblems(request.mapping, prepared.table.header, prepared.template);
  if (problems.length > 0) throw new IntentStateError(`the column mapping does not fit this file: ${problems.join('; ')}`);
  const decision = request.duplicates ?? NO_DECISION;
  const duplicates = prepared.view.duplicates;
  checkDecision(duplicates.rows, duplicates.placedBefore, decision);
  // Only a row the preview named as a duplicate can be skipped.
  const skipped = new Set(duplicates.rows.map((row) => row.rowNumber).filter((rowNumber) => decision.skipRows.includes(rowNumber)));
  const passing = prepared.preview.rows.filter((row) => row.purchaseEntries !== null);
  const good = passing.filter((row) => !skipped.has(row.rowNumber));
  const totals = { ok: good.length, totalFen: good.reduce((sum, row) => sum + (row.amountFen ?? 0), 0) };
  if (totals.ok === 0) throw new IntentStateError('no row of the file can be ordered: fix the rows with errors first');
  if (totals.ok !== request.confirmedRows || totals.totalFen !== request.confirmedTotalFen) {
    throw new IntentStateError(`the batch is ${totals.ok} rows for ${totals.totalFen} fen, not the ${request.confirmedRows} rows for ${request.confirmedTotalFen} fen confirmed; preview it again`);
  }
  for (const row of good) registerEntries(logger, row.purchaseEntries ?? []);
  const batchId = newClientRef('o').replace(/^o_/, 'b_');
  const now = seconds(clock);
  const placed = db
    .transaction((): { batchId: string; created: boolean } => {
      const raced = batchOfDraft(db, request.draftRef);
      if (raced !== null) return { batchId: sameBatch(raced, request, sha).batchId, created: false };
      // Again inside the write lock: a batch of this file placed meanwhile (by the CLI, another window) is named too.
      checkDecision([], placedBefore(db, sealedOpener(deps), { productRef: request.productRef, fileSha256: sha, rows: passing, now }), decision);
      insertBatch(db, {
        batchId,
        draftRef: request.draftRef,
        productRef: request.productRef,
        variantRef: request.variantRef,
        fileName: request.file.fileName,
        fileSha256: sha,
        fileFormat: prepared.table.format,
        mapping: request.mapping,
        defaultUnits: request.defaultUnits ?? null,
        confirmedUnitPriceFen: request.unitPriceFen,
        rowCount: prepared.preview.totals.rows,
        createdAt: now,
      });
      for (const row of good) writeIntent(deps, batchId, request, prepared.template, row, now);
      rememberMapping(db, request.productRef, request.mapping, now);
      return { batchId, created: true };
    })
    .immediate();
  if (placed.created) logger.info('batch recorded', { batchId, rows: good.length, productRef: request.productRef, variantRef: request.variantRef, unitPriceFen: request.unitPriceFen });
  deps.outbox.poke();
  return placed;
}

/** Where a row is, from its intent status and the merchant's state. */
export function rowPhase(intentStatus: string, state: string | null): BatchRowPhase {
  if (intentStatus === 'queued' || intentStatus === 'needs_template') return 'queued';
  if (intentStatus === 'sending' || intentStatus === 'unknown' || intentStatus === 'withdrawing') return 'sending';
  if (intentStatus === 'accepted') return state === 'failed' ? 'failed' : 'accepted';
  if (intentStatus === 'rejected') return 'failed';
  if (intentStatus === 'withdrawn') return 'withdrawn';
  return 'waiting';
}

export function batchStatus(deps: Pick<BatchDeps, 'db' | 'clock'>, batchId: string): BatchStatusView {
  const batch = getBatch(deps.db, batchId);
  if (batch === null) throw new IntentStateError(`no batch ${batchId}`);
  const states = batchRowStates(deps.db, batchId);
  const counts = { queued: 0, sending: 0, accepted: 0, failed: 0, waiting: 0, withdrawn: 0 };
  let chargedFen = 0;
  let priceRows = 0;
  let priceFen: number | null = null;
  const rows = states.map((row) => {
    const phase = rowPhase(row.intentStatus, row.state);
    counts[phase] += 1;
    if (row.intentStatus === 'accepted' && row.totalFen !== null) chargedFen += row.totalFen;
    if (row.intentStatus === 'price_changed') {
      priceRows += 1;
      priceFen = Math.max(priceFen ?? 0, row.guardUnitPriceFen ?? 0);
    }
    return {
      rowNumber: row.rowNumber,
      clientOrderRef: row.clientOrderRef,
      phase,
      intentStatus: row.intentStatus,
      state: row.state,
      platformOrderRef: row.platformOrderRef,
      units: row.units,
      totalFen: row.totalFen,
      confirmedUnitPriceFen: row.confirmedUnitPriceFen,
      guardUnitPriceFen: row.guardUnitPriceFen,
      errorCode: row.lastErrorCode,
      errorMessage: row.state === 'failed' ? (row.failureReason ?? row.lastErrorMessage) : row.lastErrorMessage,
      earlierRefs: [...row.earlierRefs],
    };
  });
  const attempts = states.filter((row) => row.lastAttemptAt !== null).map((row) => (row.lastAttemptAt ?? 0) * 1000);
  return {
    batchId,
    productRef: batch.productRef,
    variantRef: batch.variantRef,
    fileName: batch.fileName,
    confirmedUnitPriceFen: batch.confirmedUnitPriceFen,
    createdAt: batch.createdAt,
    rows,
    counts,
    priceChanged: { rows: priceRows, unitPriceFen: priceFen },
    chargedFen,
    etaMs: batchEtaMs(deps.clock.nowMs(), attempts, counts.queued + counts.sending),
  };
}

/** A failed row the merchant stored nothing for keeps its ref; anything else needs a new one. */
function reusesRef(row: BatchRowState): boolean {
  return row.intentStatus === 'rejected' && row.lastErrorCode !== '409001';
}

export interface RetryOutcome {
  readonly requeued: number;
  readonly renewed: number;
  readonly skipped: { rowNumber: number; reason: string }[];
}

/**
 * Sends the failed rows of a batch again, and nothing else (contract §13.5). The file must be the
 * batch's own (same sha256): its rows are checked again with the batch's mapping and price, since a
 * refused intent no longer holds its entries. One transaction for every row.
 */
export async function retryFailedRows(deps: BatchDeps, batchId: string, file: BatchFile): Promise<RetryOutcome> {
  const { db, clock, logger } = deps;
  const batch = getBatch(db, batchId);
  if (batch === null) throw new IntentStateError(`no batch ${batchId}`);
  if (sha256Hex(file.bytes) !== batch.fileSha256) throw new IntentStateError(`this is not the file batch ${batchId} was placed from (its content differs); choose that file`);
  const prepared = await prepareBatch(deps, {
    file,
    productRef: batch.productRef,
    variantRef: batch.variantRef,
    mapping: batch.mapping,
    unitPriceFen: batch.confirmedUnitPriceFen,
    ...(batch.defaultUnits === null ? {} : { defaultUnits: batch.defaultUnits }),
    // The batch's own file (same sha256) was placed: rows with invalid bytes were never ordered, and stay marked.
    invalidBytes: 'markRows',
  });
  const byRow = new Map(prepared.preview.rows.map((row) => [row.rowNumber, row]));
  const failed = batchRowStates(db, batchId).filter((row) => rowPhase(row.intentStatus, row.state) === 'failed');
  const skipped: { rowNumber: number; reason: string }[] = [];
  let requeued = 0;
  let renewed = 0;
  const now = seconds(clock);
  db.transaction(() => {
    for (const row of failed) {
      const checked = byRow.get(row.rowNumber);
      if (checked === undefined || checked.purchaseEntries === null) {
        skipped.push({ rowNumber: row.rowNumber, reason: checked === undefined ? 'the row is not in the file' : checked.errors.map((e) => e.message).join('; ') });
        continue;
      }
      registerEntries(logger, checked.purchaseEntries);
      if (reusesRef(row)) {
        const content = { units: checked.units ?? row.units, purchaseSchemaRevision: prepared.template.purchaseSchemaRevision, purchaseEntries: checked.purchaseEntries,
          optionLabels: optionLabelsOf(prepared.template.purchaseFields, checked.purchaseEntries) };
        if (requeueRejected(db, row.clientOrderRef, content, now)) requeued += 1;
        continue;
      }
      const old = getIntent(db, row.clientOrderRef);
      const unitPriceFen = old?.confirmedUnitPriceFen ?? batch.confirmedUnitPriceFen;
      if (!retireBatchRow(db, batchId, row.clientOrderRef, now)) continue;
      writeIntent(deps, batchId, { productRef: batch.productRef, variantRef: batch.variantRef, unitPriceFen }, prepared.template, checked, now);
      renewed += 1;
    }
  }).immediate();
  logger.info('batch failed rows retried', { batchId, requeued, renewed, skipped: skipped.length });
  deps.outbox.poke();
  return { requeued, renewed, skipped };
}

/** The buyer confirms the price the merchant asks now for every row the guard parked as price_changed (same refs). */
export function confirmBatchPrice(deps: BatchDeps, batchId: string, unitPriceFen: number): number {
  if (getBatch(deps.db, batchId) === null) throw new IntentStateError(`no batch ${batchId}`);
  let confirmed = 0;
  for (const row of batchRowStates(deps.db, batchId)) {
    if (row.intentStatus !== 'price_changed') continue;
    if ((row.guardUnitPriceFen ?? 0) > unitPriceFen) continue;
    const intent = getIntent(deps.db, row.clientOrderRef);
    if (intent === null) continue;
    deps.intents.confirmIntent(row.clientOrderRef, { units: intent.units, unitPriceFen, ...(intent.purchaseEntries === null ? {} : { purchaseEntries: intent.purchaseEntries }) });
    confirmed += 1;
  }
  deps.outbox.poke();
  return confirmed;
}
