// `batch FILE --product N [--variant V] [--map column=field …] [--units N] [--max-price YUAN] [--json]
// [--yes] [--allow-duplicates] [--retry BATCH] [--results PATH]`: orders from a CSV or XLSX file through core's one batch
// path (contract §13), the same reader, mapping, row rules and placing as the app's "Batch from file".
// Without --yes it only previews: every row checked, nothing written or sent. With --yes every valid
// row becomes one intent (one transaction, before any send), the outbox sends them at the pace the
// quota allows, and the command waits for the outcome of each row. --retry BATCH sends the failed rows
// of that batch again (FILE must be the batch's own file). --results PATH writes the file's rows with
// status, clientOrderRef, platformOrderRef and error (.csv or .xlsx by the name).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BatchDeps, MerchantServices } from '../../core';
import { batchResults, batchStatus, BatchFileError, DuplicatesNotConfirmedError, placeBatch, prepareBatch, retryFailedRows, TemplateOfflineError, VariantNotFoundError } from '../../core';
import { MAX_BATCH_FILE_BYTES, UNITS_TARGET } from '../../shared/batch-file';
import type { BatchPreviewView, BatchStatusView } from '../../shared/ipc/views/batch';
import { intOption, optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, printLine, progress, yuan } from '../output';
import { allowAll, duplicatesJson, hasDuplicates, printDuplicates, REFUSED_MESSAGE } from './batch-duplicates-output';
import { confirmedUnitPrice } from './price-option';

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

function readFile(path: string): { fileName: string; bytes: Uint8Array } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (bytes.byteLength > MAX_BATCH_FILE_BYTES) throw new UsageError(`${path} has ${bytes.byteLength} bytes; at most ${MAX_BATCH_FILE_BYTES} are read as one batch`);
  return { fileName: basename(path), bytes: new Uint8Array(bytes) };
}

function printPreview(view: BatchPreviewView, json: boolean): void {
  const { totals } = view;
  if (json) {
    printJson({ format: view.format, encoding: view.encoding, mapping: view.mapping, mappingSource: view.mappingSource, unitPrice: yuan(view.unitPriceFen), totals: { ...totals, total: yuan(totals.totalFen) }, duplicates: duplicatesJson(view.duplicates), rows: view.rows.map((row) => ({ rowNumber: row.rowNumber, units: row.units, errors: row.errors })) });
    return;
  }
  printLine(`mapping (${view.mappingSource}): ${Object.entries(view.mapping).map(([target, column]) => `${column} → ${target === UNITS_TARGET ? 'units' : target}`).join(', ') || '(none)'}`);
  for (const row of view.rows) if (row.errors.length > 0) printLine(`row ${row.rowNumber}: ${row.errors.map((e) => e.message).join('; ')}`);
  printDuplicates(view.duplicates);
  printLine(`${totals.rows} rows: ${totals.ok} ok, ${totals.withErrors} with errors; ${totals.units} units, total ¥${yuan(totals.totalFen) ?? ''} at ¥${yuan(view.unitPriceFen) ?? ''}`);
}

function printStatus(status: BatchStatusView, json: boolean): void {
  if (json) {
    printJson({
      batchId: status.batchId,
      counts: status.counts,
      charged: yuan(status.chargedFen),
      priceChanged: { rows: status.priceChanged.rows, unitPrice: yuan(status.priceChanged.unitPriceFen) },
      rows: status.rows.map((row) => ({ rowNumber: row.rowNumber, clientOrderRef: row.clientOrderRef, status: row.state ?? row.intentStatus, platformOrderRef: row.platformOrderRef, error: row.errorCode, earlierRefs: row.earlierRefs })),
    });
    return;
  }
  for (const row of status.rows) printLine(`row ${row.rowNumber}: ${row.state ?? row.intentStatus} ${row.clientOrderRef}${row.errorCode === null ? '' : ` (${row.errorCode})`}`);
  const { counts } = status;
  printLine(`batch ${status.batchId}: ${counts.accepted} accepted, ${counts.failed} failed, ${counts.waiting} waiting for you, ${counts.queued + counts.sending} still sending; charged ¥${yuan(status.chargedFen) ?? ''}`);
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

async function writeResults(deps: BatchDeps, batchId: string, file: { fileName: string; bytes: Uint8Array }, path: string | undefined): Promise<void> {
  if (path === undefined) return;
  const format = /\.xlsx$/i.test(path) ? 'xlsx' : 'csv';
  const out = await batchResults(deps, batchId, file, format);
  writeFileSync(path, out.bytes, { mode: 0o600 });
  progress(`results written to ${path}`);
}

export async function batchCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const path = args.words[1];
  if (path === undefined || args.words.length > 2) throw new UsageError('batch takes one FILE');
  const productRef = intOption(args, 'product', true);
  const variantRef = intOption(args, 'variant', false) ?? 0;
  const defaultUnits = intOption(args, 'units', false);
  const json = args.flags.has('json');
  const file = readFile(path);
  const services = await context.core.merchant();
  const deps: BatchDeps = { db: context.core.db, clock: context.core.clock, logger: context.logger, placement: services.placement, intents: services.intents, outbox: services.outbox, vault: context.core.vault };
  const allowDuplicates = args.flags.has('allow-duplicates');
  try {
    const retry = optionOf(args, 'retry');
    if (retry !== undefined) {
      const outcome = await retryFailedRows(deps, retry, file);
      progress(`${outcome.requeued} rows sent again under their refs, ${outcome.renewed} with a new ref; ${outcome.skipped.length} skipped`);
      const { status, away } = await sendUntilSettled(context, services, retry);
      printStatus(status, json);
      await writeResults(deps, retry, file, optionOf(args, 'results'));
      return exitOf(status, away, outcome.skipped.length);
    }
    const unitPriceFen = confirmedUnitPrice(context, args, productRef, variantRef);
    const request = { file, productRef, variantRef, mapping: mappingOf(args), unitPriceFen, ...(defaultUnits === undefined ? {} : { defaultUnits }) };
    const prepared = await prepareBatch(deps, request);
    const { view } = prepared;
    if (view.mappingProblems.length > 0) throw new UsageError(`the mapping does not fit ${file.fileName}: ${view.mappingProblems.join('; ')}`);
    if (!args.flags.has('yes')) {
      printPreview(view, json);
      progress('preview only: nothing was sent (--yes places the valid rows)');
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
    progress(`batch ${batchId}: ${view.totals.ok} orders recorded before sending; total ¥${yuan(view.totals.totalFen) ?? ''}`);
    const { status, away } = await sendUntilSettled(context, services, batchId);
    printStatus(status, json);
    if (status.priceChanged.rows > 0) progress(`price rose on ${status.priceChanged.rows} rows: the merchant now asks ¥${yuan(status.priceChanged.unitPriceFen) ?? ''}; nothing was charged for them`);
    await writeResults(deps, batchId, file, optionOf(args, 'results'));
    return exitOf(status, away, view.totals.withErrors);
  } catch (error) {
    if (error instanceof DuplicatesNotConfirmedError) {
      // Placed meanwhile by another process on this data folder: named inside the write lock.
      progress(`${error.message}. ${REFUSED_MESSAGE}`);
      return EXIT.business;
    }
    if (error instanceof BatchFileError) throw new UsageError(`${file.fileName}: ${error.message}`);
    if (error instanceof VariantNotFoundError) throw new UsageError(`product ${productRef} has no variant ${variantRef}; choose one with --variant N: ${error.variants.map((v) => `${v.variantRef} (${v.title})`).join(', ')}`);
    if (error instanceof TemplateOfflineError) {
      progress('the merchant cannot be reached for the purchase template: nothing was written; try again when it answers');
      return EXIT.network;
    }
    throw error;
  }
}
