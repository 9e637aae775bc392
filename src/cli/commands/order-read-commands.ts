// `order show REF --json` and `orders --json`: what this machine knows, offline; card numbers masked.
import { getStoredOrder, listRefunds, listStoredOrders } from '../../core';
import { getIntent, listIntents } from '../../core';
import { type ParsedArgs, UsageError } from '../cli-args';
import type { CliContext } from '../cli-context';
import { printJson, printLine, yuan } from '../output';
import { serverFailingMessage } from './order-retry-command';

export function orderShowCommand(context: CliContext, args: ParsedArgs): void {
  const ref = args.words[2];
  if (ref === undefined) throw new UsageError('order show needs a clientOrderRef');
  const { db } = context.core;
  const intent = getIntent(db, ref);
  if (intent === null) throw new UsageError(`no order ${ref} on this machine`);
  const order = getStoredOrder(db, ref);
  // Top-up accounts are the buyer's data but not for a terminal scrollback: counted, not shown.
  // The recharged entries stay sealed here; the prices are shown in yuan next to their fen.
  const { rechargedEntriesSealed, ...shown } = intent;
  const intentView = {
    ...shown,
    purchaseEntries: intent.purchaseEntries === null ? null : intent.purchaseEntries.length,
    rechargedEntryGroups: rechargedEntriesSealed === null ? 0 : (context.core.vault.openRechargedEntries(ref, rechargedEntriesSealed)?.groups.length ?? 0),
    confirmedUnitPrice: yuan(intent.confirmedUnitPriceFen),
    guardUnitPrice: yuan(intent.guardUnitPriceFen),
  };
  const view = {
    intent: intentView,
    order: order === null ? null : { ...order, unitPrice: yuan(order.unitPriceFen), total: yuan(order.totalFen), refunded: yuan(order.refundedFen) },
    refunds: listRefunds(db, ref).map((r) => ({ ...r, amount: yuan(r.amountFen) })),
    cards: context.core.vault.listCards(ref),
  };
  if (args.flags.has('json')) printJson(view);
  else {
    printLine(`${ref}\t${intent.status}\t${order?.state ?? '-'}\t¥${yuan(order?.totalFen ?? null) ?? '-'}\tcards ${view.cards.length}`);
    if (intent.status === 'merchant_failing') printLine(serverFailingMessage(intent));
  }
}

export function ordersCommand(context: CliContext, args: ParsedArgs): void {
  const { db } = context.core;
  const orders = new Map(listStoredOrders(db).map((o) => [o.clientOrderRef, o]));
  const rows = listIntents(db).map((intent) => {
    const order = orders.get(intent.clientOrderRef);
    return {
      clientOrderRef: intent.clientOrderRef,
      status: intent.status,
      state: order?.state ?? null,
      platformOrderRef: order?.platformOrderRef ?? null,
      productRef: intent.productRef,
      variantRef: intent.variantRef,
      units: intent.units,
      total: yuan(order?.totalFen ?? null),
      lastErrorCode: intent.lastErrorCode,
      serverFailures: intent.serverFailures,
      createdAt: intent.createdAt,
    };
  });
  if (args.flags.has('json')) printJson(rows);
  else for (const row of rows) printLine(`${row.clientOrderRef}\t${row.status}\t${row.state ?? '-'}\t¥${row.total ?? '-'}`);
}
