// `vault export --out FILE [--format xlsx|csv-zip|txt-zip [--lines card-no|card-no-password]] [--order REF … --product N … | --from D --to D |
// --not-exported] [--include-refunded] [--language zh-CN|en] [--overwrite] [--json]`: the app's export
// (core's card exporter: the same selection, encryption, marks and one `export` audit row written in
// the transaction that renames the file into place). The password comes from PROCURE_EXPORT_PASSWORD
// or standard input (export-password.ts), never argv, and meets the app's password policy; a plain
// CSV or TXT is not offered here (txt-zip is the TXT of codes inside the AES ZIP). Cards of refunded orders leave only with --include-refunded (the app's
// acknowledgement), else exit 5. The answer says where the file went and how many cards, never what.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCardExporter, createCardQueries, withExtension } from '../../core';
import { cardSelectionSchema, EXPORT_LANGUAGES, type CardSelection, type ExportLanguage, type ExportTxtLines } from '../../shared/ipc/views/vault';
import { optionOf, requiredOption, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { localDayRange } from '../day-range';
import { exportPassword } from '../export-password';
import { printJson, printLine } from '../output';
import { requireOrder } from './vault-commands';

/** The CLI's format words: an encrypted workbook, or a CSV or a TXT of codes in an AES ZIP (all encrypted). */
const FORMATS = ['xlsx', 'csv-zip', 'txt-zip'] as const;
type FormatWord = (typeof FORMATS)[number];
const LINES: Readonly<Record<string, ExportTxtLines>> = { 'card-no': 'cardNo', 'card-no-password': 'cardNoPassword' };

function formatOf(args: ParsedArgs): FormatWord {
  const word = optionOf(args, 'format') ?? 'xlsx';
  const format = FORMATS.find((f) => f === word);
  if (format === undefined) throw new UsageError(`--format takes xlsx, csv-zip or txt-zip (all encrypted with the password); got "${word}"`);
  return format;
}

/** A TXT's lines (txt-zip only; the card number alone unless asked). */
function linesOf(args: ParsedArgs, format: FormatWord): ExportTxtLines | null {
  const word = optionOf(args, 'lines');
  if (format !== 'txt-zip') {
    if (word !== undefined) throw new UsageError('--lines goes with --format txt-zip');
    return null;
  }
  const lines = LINES[word ?? 'card-no'];
  if (lines === undefined) throw new UsageError(`--lines takes card-no or card-no-password; got "${word ?? ''}"`);
  return lines;
}

function languageOf(args: ParsedArgs): ExportLanguage {
  const word = optionOf(args, 'language') ?? 'zh-CN';
  const language = EXPORT_LANGUAGES.find((l) => l === word);
  if (language === undefined) throw new UsageError(`--language takes ${EXPORT_LANGUAGES.join(' or ')}`);
  return language;
}

/** The vault list's page size (the contract's maximum), for reading a product's cards. */
const PRODUCT_PAGE = 500;

/** Every card of the given orders and products, as the vault list's picked cards (the app's `cards` selection). */
function pickedCards(context: CliContext, orders: readonly string[], products: readonly number[]): CardSelection {
  const queries = createCardQueries(context.core.db);
  const keys = new Map<string, { clientOrderRef: string; seq: number }>();
  const add = (clientOrderRef: string, seq: number): void => void keys.set(`${clientOrderRef}#${seq}`, { clientOrderRef, seq });
  for (const ref of orders) for (const card of context.core.vault.listCards(ref)) add(ref, card.seq);
  for (const productRef of products) {
    for (let offset = 0; ; offset += PRODUCT_PAGE) {
      const page = queries.page({ selection: { kind: 'product', productRef } }, offset, PRODUCT_PAGE);
      for (const row of page) add(row.client_order_ref, row.seq);
      if (page.length < PRODUCT_PAGE) break;
    }
  }
  if (keys.size === 0) throw new UsageError('the orders and products given hold no cards: there is nothing to export');
  return { kind: 'cards', cards: [...keys.values()] };
}

/**
 * One of the app's selections: one order or product as such; several (--order and --product repeat and
 * combine) as the cards they hold, picked; or a date range, or the cards not yet exported, alone.
 */
function selectionOf(context: CliContext, args: ParsedArgs): CardSelection {
  const orders = args.options.get('order') ?? [];
  const products = (args.options.get('product') ?? []).map((text) => {
    if (!/^\d+$/.test(text)) throw new UsageError('--product takes a whole number');
    return Number(text);
  });
  for (const ref of orders) requireOrder(context, ref);
  const from = optionOf(args, 'from');
  const to = optionOf(args, 'to');
  const chosen: CardSelection[] = [];
  const [onlyOrder] = orders;
  const [onlyProduct] = products;
  if (orders.length + products.length > 1) chosen.push(pickedCards(context, orders, products));
  else if (onlyOrder !== undefined) chosen.push({ kind: 'order', clientOrderRef: onlyOrder });
  else if (onlyProduct !== undefined) chosen.push({ kind: 'product', productRef: onlyProduct });
  if (from !== undefined || to !== undefined) {
    if (from === undefined || to === undefined) throw new UsageError('--from and --to go together (received between those days, both included)');
    chosen.push({ kind: 'dateRange', ...localDayRange(from, to) });
  }
  if (args.flags.has('not-exported')) chosen.push({ kind: 'notExported' });
  const [selection, ...others] = chosen;
  if (selection === undefined || others.length > 0) throw new UsageError('choose what to export with --order REF and/or --product N (each may repeat), or --from D --to D, or --not-exported');
  const parsed = cardSelectionSchema.safeParse(selection);
  if (!parsed.success) throw new UsageError(`the selection is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

export async function vaultExportCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const word = formatOf(args);
  const txtLines = linesOf(args, word);
  const format = word === 'xlsx' ? 'xlsx' : 'zip';
  const language = languageOf(args);
  const selection = selectionOf(context, args);
  const target = withExtension(resolve(requiredOption(args, 'out')), format);
  if (existsSync(target) && !args.flags.has('overwrite')) throw new UsageError(`${target} exists: choose another --out, or add --overwrite`);
  const password = await exportPassword(context);
  const { core } = context;
  const exporter = createCardExporter({ db: core.db, vault: core.vault, logger: context.logger, now: () => Math.floor(core.clock.nowMs() / 1000) });
  const outcome = await exporter
    .export(
      { selection, format, ...(txtLines === null ? {} : { txtLines }), language, password, passwordConfirm: password, acknowledgeRefunded: args.flags.has('include-refunded') },
      // The path was chosen on the command line: nothing to ask.
      () => Promise.resolve(target),
    )
    .catch((error: unknown) => {
      // Node's words would name the temporary file beside the target; ours name the target.
      const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : null;
      throw code !== null && /^E[A-Z]+$/.test(code) ? new Error(`the export could not be saved at ${target} (${code}); nothing was written`) : error;
    });
  if (outcome.status === 'cancelled') throw new Error('the export was cancelled');
  const view = { path: outcome.path, fileName: outcome.fileName, count: outcome.count, format: word, orders: outcome.clientOrderRefs.length };
  if (args.flags.has('json')) printJson(view);
  else printLine(`exported ${view.count} card${view.count === 1 ? '' : 's'} of ${view.orders} order${view.orders === 1 ? '' : 's'} to ${view.path} (${view.format}, encrypted)`);
}
