// `vault list [--order REF] [--product N] [--json]`: the vault's cards masked exactly as the vault
// screen shows them (core's listVault over the same card queries: the last digits of the number,
// never the password; nothing opened, nothing audited).
// `vault reveal REF [--card N] --yes [--acknowledge-refunded] [--json]`: the plain card codes of one
// order, through the vault reader's audited reveal, as the app's: one card (`--card N`, numbered as
// the vault numbers them, #1 first) is one `reveal` row of that card, the whole order one `reveal`
// row of the order with every card counted (contract §14). Refused without --yes (exit 2) and, for an
// order the merchant took money back for, without --acknowledge-refunded (exit 5): nothing opened,
// nothing audited. The codes go to stdout only; they are registered with the redacting logger so no
// line of the log file can carry them.
import { listVault, createCardQueries, getIntent, getStoredOrder } from '../../core';
import { cardNumber, seqOfCardNumber } from '../../shared/card-number';
import { vaultListQuerySchema, type CardSelection, type RevealedCard, type VaultCardRow } from '../../shared/ipc/views/vault';
import { intOption, optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { printJson, printLine, yuan } from '../output';
import { formatStamp, runtimeTimeZone } from '../../shared/date-time';

/** The vault list's own page size (the contract's maximum): the CLI reads every page. */
const PAGE = 500;

export function requireOrder(context: CliContext, ref: string): void {
  if (getIntent(context.core.db, ref) === null) throw new UsageError(`no order ${ref} on this machine`);
}

function listSelection(context: CliContext, args: ParsedArgs): CardSelection | undefined {
  const order = optionOf(args, 'order');
  const product = intOption(args, 'product', false);
  if (order !== undefined && product !== undefined) throw new UsageError('give --order or --product, not both');
  if (order !== undefined) {
    requireOrder(context, order);
    return { kind: 'order', clientOrderRef: order };
  }
  return product === undefined ? undefined : { kind: 'product', productRef: product };
}

function rowView(row: VaultCardRow): VaultCardRow & { card: number; price: string | null } {
  return { ...row, card: cardNumber(row.seq), price: yuan(row.priceFen) };
}

export function vaultListCommand(context: CliContext, args: ParsedArgs): void {
  const selection = listSelection(context, args);
  const queries = createCardQueries(context.core.db);
  const rows: VaultCardRow[] = [];
  let total: number | undefined;
  for (let offset = 0; ; offset += PAGE) {
    // The app's own query schema: a ref or product number it would refuse is refused here too.
    const parsed = vaultListQuerySchema.safeParse({ ...(selection === undefined ? {} : { selection }), offset, limit: PAGE });
    if (!parsed.success) throw new UsageError(`--order takes a clientOrderRef (o_…) and --product a positive number: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const page = listVault(queries, context.core.vault, parsed.data);
    total = page.total;
    rows.push(...page.rows);
    if (page.rows.length < PAGE) break;
  }
  if (args.flags.has('json')) {
    printJson({ total: total ?? rows.length, cards: rows.map(rowView) });
    return;
  }
  for (const row of rows) {
    const name = [row.productName ?? `product ${row.productRef}`, row.variantTitle].filter((part) => part !== null && part !== '').join(' / ');
    const marks = [row.refundMark, row.usedAt === null ? null : 'used', row.exportedAt === null ? null : 'exported'].filter((m) => m !== null).join(',');
    printLine(`${row.platformOrderRef ?? row.clientOrderRef} #${cardNumber(row.seq)}\t${row.cardNoMasked}\t${name}\t¥${yuan(row.priceFen) ?? '-'}${marks === '' ? '' : `\t${marks}`}`);
  }
  printLine(`${total} card${total === 1 ? '' : 's'}`);
}

function revealed(context: CliContext, args: ParsedArgs, ref: string): RevealedCard[] {
  const { vault } = context.core;
  const acknowledgeRefunded = args.flags.has('acknowledge-refunded');
  const card = intOption(args, 'card', false);
  if (card !== undefined) {
    if (card < 1) throw new UsageError('--card takes the card number as the vault shows it, from 1');
    return [vault.revealCard(ref, seqOfCardNumber(card), { acknowledgeRefunded })];
  }
  // An order without cards has nothing to reveal: no audit row for nothing.
  if (vault.listCards(ref).length === 0) throw new UsageError(`order ${ref} has no cards in the vault (yet)`);
  return vault.revealOrderCards(ref, { acknowledgeRefunded });
}

export function vaultRevealCommand(context: CliContext, args: ParsedArgs): void {
  const ref = args.words[2];
  if (ref === undefined) throw new UsageError('vault reveal needs a clientOrderRef');
  if (args.words.length > 3) throw new UsageError('vault reveal takes one clientOrderRef');
  // Before anything is read: the plain text leaves only on an explicit, audited request.
  if (!args.flags.has('yes')) throw new UsageError('vault reveal prints card codes in plain text and writes it to the audit log: add --yes to go on');
  requireOrder(context, ref);
  const cards = revealed(context, args, ref);
  for (const card of cards) {
    context.logger.registerSecret(card.cardNo);
    if (card.cardPassword !== null) context.logger.registerSecret(card.cardPassword);
  }
  const views = cards.map((c) => ({ card: cardNumber(c.seq), seq: c.seq, cardNo: c.cardNo, cardPassword: c.cardPassword, expiresAt: c.expiresAt }));
  if (args.flags.has('json')) {
    printJson({ clientOrderRef: ref, platformOrderRef: getStoredOrder(context.core.db, ref)?.platformOrderRef ?? null, cards: views });
    return;
  }
  for (const view of views) printLine(`#${view.card}\t${view.cardNo}\t${view.cardPassword ?? ''}${view.expiresAt === null ? '' : `\t${formatStamp(view.expiresAt * 1000, runtimeTimeZone())}`}`);
}
