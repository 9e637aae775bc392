// `batch FILE --product N [--variant V] [--map column=field …] [--units N] [--max-price YUAN] [--json]
// [--yes] [--allow-duplicates] [--mark-invalid-rows] [--retry BATCH] [--results PATH] [--fallback]`: orders from a CSV or XLSX file through core's one batch
// path (contract §13), the same reader, mapping, row rules and placing as the app's "Batch from file".
// Without --yes it only previews: every row checked, nothing written or sent. With --yes every valid
// row becomes one intent (one transaction, before any send), the outbox sends them at the pace the
// quota allows, and the command waits for the outcome of each row. --retry BATCH sends the failed rows
// of that batch again (FILE must be the batch's own file). --results PATH writes the file's rows with
// status, clientOrderRef, platformOrderRef and error (.csv or .xlsx by the name). --fallback: a link's
// rule may send the batch to another merchant (batch-fallback.ts), named in every output.
// --mark-invalid-rows: a CSV with invalid bytes is read with those rows marked as errors, not refused.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BatchDeps, MerchantServices } from '../../core';
import { batchResults, batchStatus, BatchFileError, readBoundedFile, DuplicatesNotConfirmedError, merchantShares, placeBatch, prepareBatch, recordBatchFallback, retryFailedRows, TemplateOfflineError, VariantNotFoundError } from '../../core';
import { MAX_BATCH_FILE_BYTES, UNITS_TARGET } from '../../shared/batch-file';
import type { BatchFallbackView, BatchPreviewView, BatchStatusView } from '../../shared/ipc/views/batch';
import { intOption, optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, printLine, progress, yuan } from '../output';
import { allowAll, duplicatesJson, hasDuplicates, printDuplicates, REFUSED_MESSAGE } from './batch-duplicates-output';
import { batchPlace, merchantJson, placedFallback, sharesJson, sharesText, type BatchPlace } from './batch-fallback';
import { confirmedUnitPrice, maxPriceOption } from './price-option';

/** How long `batch --yes` waits for the rows' outcomes (merchant time): 1,000 rows take about 9 minutes of orderCreate quota. */
const WAIT_MS = 15 * 60_000;

function mappingOf(args: ParsedArgs): Record<string, string> | null {
  const pairs = args.options.get('map') ?? [];
  if (pairs.length === 0) return null;
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    if (at < 1 || at === pair.length - 1) throw new UsageError('--map takes column=field (field: a fieldRef of the template, or units)');
    const field = pair.slice(at + 1);
    mapping[field === 'units' ? UNITS_TARGET : field] = pair.slice(0, at);
  }
  return mapping;
}

/** The file's bytes, its size checked before any is read (a 50 MB file is refused unread). */
function readFile(path: string): { fileName: string; bytes: Uint8Array } {
  let bytes: Uint8Array | null;
  try {
    bytes = readBoundedFile(path, MAX_BATCH_FILE_BYTES);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (bytes === null) throw new UsageError(`${path} is larger than ${MAX_BATCH_FILE_BYTES} bytes, the most read as one batch (tooLarge): refused before reading it`);
  return { fileName: basename(path), bytes };
}

function printPreview(view: BatchPreviewView, json: boolean): void {
  const { totals, fallback } = view;
  if (json) {
    // Under a fallback every ready row names the merchant it is ordered from.
    const rowMerchant = (ready: boolean): Record<string, unknown> => (fallback === undefined || !ready ? {} : { merchant: fallback.to.name });
    printJson({
      format: view.format,
      encoding: view.encoding,
      mapping: view.mapping,
      mappingSource: view.mappingSource,
      unitPrice: yuan(view.unitPriceFen),
      totals: { ...totals, total: yuan(totals.totalFen) },
      ...(fallback === undefined ? {} : { ...merchantJson(fallback), merchants: sharesJson(view.merchants ?? []) }),
      duplicates: duplicatesJson(view.duplicates),
      rows: view.rows.map((row) => ({ rowNumber: row.rowNumber, units: row.units, errors: row.errors, ...rowMerchant(row.errors.length === 0) })),
    });
    return;
  }
  printLine(`mapping (${view.mappingSource}): ${Object.entries(view.mapping).map(([target, column]) => `${column} → ${target === UNITS_TARGET ? 'units' : target}`).join(', ') || '(none)'}`);
  for (const row of view.rows) if (row.errors.length > 0) printLine(`row ${row.rowNumber}: ${row.errors.map((e) => e.message).join('; ')}`);
  printDuplicates(view.duplicates);
  const at = fallback === undefined ? '' : ` at ${fallback.to.name} (fallback rule; ${fallback.from.name} ${fallback.reason}, limit ¥${yuan(fallback.limitFen) ?? ''})`;
  printLine(`${totals.rows} rows: ${totals.ok} ok, ${totals.withErrors} with errors; ${totals.units} units, total ¥${yuan(totals.totalFen) ?? ''} at ¥${yuan(view.unitPriceFen) ?? ''}${at}`);
  for (const line of sharesText(view.merchants ?? [])) printLine(line);
}

function printStatus(status: BatchStatusView, json: boolean, fallback: BatchFallbackView | null): void {
  const merchant = fallback?.to.name;
  if (json) {
    printJson({
      batchId: status.batchId,
      ...(fallback === null ? {} : merchantJson(fallback)),
      counts: status.counts,
      charged: yuan(status.chargedFen),
      priceChanged: { rows: status.priceChanged.rows, unitPrice: yuan(status.priceChanged.unitPriceFen) },
      rows: status.rows.map((row) => ({
        rowNumber: row.rowNumber,
        clientOrderRef: row.clientOrderRef,
        status: row.state ?? row.intentStatus,
        platformOrderRef: row.platformOrderRef,
        ...(merchant === undefined ? {} : { merchant }),
        error: row.errorCode,
        earlierRefs: row.earlierRefs,
      })),
    });
    return;
  }
  // Under a fallback: the merchant and its own order number on every row.
  const at = (ref: string | null): string => (merchant === undefined ? '' : ` at ${merchant}, order ${ref ?? '(none yet)'}`);
  for (const row of status.rows) printLine(`row ${row.rowNumber}: ${row.state ?? row.intentStatus} ${row.clientOrderRef}${at(row.platformOrderRef)}${row.errorCode === null ? '' : ` (${row.errorCode})`}`);
  const { counts } = status;
  printLine(`batch ${status.batchId}: ${counts.accepted} accepted, ${counts.failed} failed, ${counts.waiting} waiting for you, ${counts.queued + counts.sending} still sending; charged ¥${yuan(status.chargedFen) ?? ''}${merchant === undefined ? '' : ` at ${merchant}`}`);
}

/** Runs outbox passes until no row of the batch is queued or sending, the merchant is away, or the wait ends. */
async function sendUntilSettled(context: CliContext, services: MerchantServices, batchId: string): Promise<{ status: BatchStatusView; away: boolean }> {
  const { core } = context;
  const deadline = core.clock.nowMs() + WAIT_MS;
  let lastEta = -1;
  for (;;) {
    const pass = await services.outbox.runOnce();
    const status = batchStatus(core, batchId);
    const open = status.counts.queued + status.counts.sending;
    if (open === 0) return { status, away: false };
    if (pass.offline || core.clock.nowMs() > deadline) return { status, away: true };
    if (status.etaMs !== null && Math.abs(status.etaMs - lastEta) > 5000) {
      lastEta = status.etaMs;
      progress(`${open} rows still to send; about ${Math.ceil(status.etaMs / 1000)} s at the merchant's order quota`);
    }
    await core.clock.sleep(250);
  }
}

function exitOf(status: BatchStatusView, away: boolean, invalidRows: number): number {
  if (away) return EXIT.network;
  const { counts } = status;
  return counts.failed + counts.waiting + counts.withdrawn + invalidRows > 0 ? EXIT.business : EXIT.ok;
}

async function writeResults(deps: BatchDeps, batchId: string, file: { fileName: string; bytes: Uint8Array }, path: string | undefined, fallback: BatchFallbackView | null): Promise<void> {
  if (path === undefined) return;
  const format = /\.xlsx$/i.test(path) ? 'xlsx' : 'csv';
  const out = await batchResults(deps, batchId, file, format, undefined, fallback?.to.name);
  writeFileSync(path, out.bytes, { mode: 0o600 });
  progress(`results written to ${path}`);
}

/** A profile's batch dependencies and merchant services. */
async function batchDepsOf(context: CliContext): Promise<{ deps: BatchDeps; services: MerchantServices }> {
  const services = await context.core.merchant();
  return { services, deps: { db: context.core.db, clock: context.core.clock, logger: context.logger, placement: services.placement, intents: services.intents, outbox: services.outbox, vault: context.core.vault } };
}

/** --fallback: where the link's rule sends the batch (an exit code when it finds no merchant); else here, as asked. */
async function placeOf(given: CliContext, args: ParsedArgs, asked: { productRef: number; variantRef: number }, previewAsked: () => Promise<BatchPreviewView>): Promise<BatchPlace | number> {
  if (!args.flags.has('fallback')) return { context: given, ...asked, fallback: null, unitPriceFen: null };
  return batchPlace(given, asked.productRef, asked.variantRef, async () => (await previewAsked()).totals.units);
}

export async function batchCommand(given: CliContext, args: ParsedArgs): Promise<number> {
  const path = args.words[1];
  if (path === undefined || args.words.length > 2) throw new UsageError('batch takes one FILE');
  const productRef = intOption(args, 'product', true);
  const variantRef = intOption(args, 'variant', false) ?? 0;
  const defaultUnits = intOption(args, 'units', false);
  const json = args.flags.has('json');
  const file = readFile(path);
  const reading = { ...(defaultUnits === undefined ? {} : { defaultUnits }), ...(args.flags.has('mark-invalid-rows') ? { invalidBytes: 'markRows' as const } : {}) };
  const allowDuplicates = args.flags.has('allow-duplicates');
  try {
    const retry = optionOf(args, 'retry');
    if (retry !== undefined) {
      const { deps, services } = await batchDepsOf(given);
      const outcome = await retryFailedRows(deps, retry, file);
      progress(`${outcome.requeued} rows sent again under their refs, ${outcome.renewed} with a new ref; ${outcome.skipped.length} skipped`);
      const { status, away } = await sendUntilSettled(given, services, retry);
      const fallback = placedFallback(given, retry);
      printStatus(status, json, fallback);
      await writeResults(deps, retry, file, optionOf(args, 'results'), fallback);
      return exitOf(status, away, outcome.skipped.length);
    }
    const mapping = mappingOf(args);
    const previewAsked = async (): Promise<BatchPreviewView> => (await prepareBatch((await batchDepsOf(given)).deps, { file, productRef, variantRef, mapping, ...reading })).view;
    const place = await placeOf(given, args, { productRef, variantRef }, previewAsked);
    if (typeof place === 'number') return place;
    const { context, fallback } = place;
    const { deps, services } = await batchDepsOf(context);
    // Under the rule: the chosen merchant's cached price, at or below the limit (and --max-price, when given).
    const max = maxPriceOption(args);
    const unitPriceFen = place.unitPriceFen === null ? confirmedUnitPrice(context, args, place.productRef, place.variantRef) : Math.min(place.unitPriceFen, max ?? place.unitPriceFen);
    const request = { file, productRef: place.productRef, variantRef: place.variantRef, mapping, unitPriceFen, ...reading };
    const prepared = await prepareBatch(deps, request);
    const view: BatchPreviewView = fallback === null ? prepared.view : { ...prepared.view, fallback, merchants: merchantShares(fallback, prepared.view.totals, unitPriceFen) };
    if (view.mappingProblems.length > 0) throw new UsageError(`the mapping does not fit ${file.fileName}: ${view.mappingProblems.join('; ')}`);
    const payee = fallback === null ? '' : ` at ${fallback.to.name}, paying it ¥${yuan(view.totals.totalFen) ?? ''}`;
    if (!args.flags.has('yes')) {
      printPreview(view, json);
      progress(`preview only: nothing was sent (--yes places the valid rows${payee})`);
      return view.totals.withErrors > 0 || (hasDuplicates(view.duplicates) && !allowDuplicates) ? EXIT.business : EXIT.ok;
    }
    if (view.totals.ok === 0) throw new UsageError('no row of the file can be ordered');
    if (hasDuplicates(view.duplicates) && !allowDuplicates) {
      if (json) printJson({ refused: 'duplicates', duplicates: duplicatesJson(view.duplicates) });
      else printDuplicates(view.duplicates);
      progress(REFUSED_MESSAGE);
      return EXIT.business;
    }
    if (!json) printPreview(view, false);
    const draftRef = `cli_${prepared.view.fileSha256.slice(0, 16)}_${Date.now().toString(36)}`;
    const { batchId } = await placeBatch(deps, { ...request, mapping: view.mapping, confirmedTotalFen: view.totals.totalFen, confirmedRows: view.totals.ok, draftRef, duplicates: allowAll(view.duplicates) });
    // The desk remembers it, so the app's batch status and results name the merchant too.
    if (fallback !== null) recordBatchFallback(given.desk.db, batchId, fallback, Math.floor(context.core.clock.nowMs() / 1000));
    progress(`batch ${batchId}: ${view.totals.ok} orders recorded before sending; total ¥${yuan(view.totals.totalFen) ?? ''}${payee}`);
    const { status, away } = await sendUntilSettled(context, services, batchId);
    printStatus(status, json, fallback);
    if (status.priceChanged.rows > 0) progress(`price rose on ${status.priceChanged.rows} rows: the merchant now asks ¥${yuan(status.priceChanged.unitPriceFen) ?? ''}; nothing was charged for them`);
    await writeResults(deps, batchId, file, optionOf(args, 'results'), fallback);
    return exitOf(status, away, view.totals.withErrors);
  } catch (error) {
    if (error instanceof DuplicatesNotConfirmedError) {
      // Placed meanwhile by another process on this data folder: named inside the write lock.
      progress(`${error.message}. ${REFUSED_MESSAGE}`);
      return EXIT.business;
    }
    if (error instanceof BatchFileError) {
      const hint = error.problem === 'invalidBytes' && error.detail['header'] !== true ? '. Save it again as UTF-8 or GB18030, or add --mark-invalid-rows to order only the other rows' : '';
      throw new UsageError(`${file.fileName}: ${error.message}${hint}`);
    }
    if (error instanceof VariantNotFoundError) throw new UsageError(`product ${productRef} has no variant ${variantRef}; choose one with --variant N: ${error.variants.map((v) => `${v.variantRef} (${v.title})`).join(', ')}`);
    if (error instanceof TemplateOfflineError) {
      progress('the merchant cannot be reached for the purchase template: nothing was written; try again when it answers');
      return EXIT.network;
    }
    throw error;
  }
}
