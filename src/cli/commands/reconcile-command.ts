// `reconcile [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]`: the books of a range against the merchant
// (contract §12.2), days in this machine's time zone, yesterday by default. Progress on stderr; the
// report on stdout (one JSON document with --json: money in integer fen). Exit 0 only when everything
// was checked and nothing differs; 6 when the run finished with differences or a balance it could not
// check (the first line says which); errors keep their own codes (2 usage, 3 the merchant refused,
// 4 network or an inconsistent list: run again, it resumes at the next page).
import type { BoundaryBalance, ReconcileReport } from '../../shared/ipc/views/reconcile';
import { optionOf, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, printLine, progress, yuan } from '../output';
import { formatStamp, runtimeTimeZone } from '../../shared/date-time';

const money = (fen: number): string => `¥${yuan(fen) ?? '?'}`;
/** Local `YYYY-MM-DD HH:mm:ss` (contract §16), in the zone the days are counted in: this machine's. */
const time = (ms: number): string => formatStamp(ms, runtimeTimeZone());

function boundary(side: BoundaryBalance): string {
  if (!side.known) return 'not known (no balance was read to rest on)';
  const when = side.fresh ? `read from the merchant now, ${time(side.atMs)}` : side.atMs === side.boundaryMs ? `read ${time(side.seenFromMs)} to ${time(side.seenUntilMs)}` : `read at ${time(side.atMs)}`;
  return `${money(side.balanceFen)} (${when})`;
}

/** The first line: what was checked and what differs, never "nothing differs" above an unchecked balance. */
function headline(report: ReconcileReport): string {
  const { verdict } = report;
  const n = report.differences.length;
  const orders = n === 0 ? `all ${report.totals.merchantOrders} orders agree` : `${n} difference${n === 1 ? '' : 's'} in the orders`;
  if (verdict.status === 'clean') return `CHECKED, nothing differs: ${orders}, the balance is explained to the fen`;
  const balance =
    verdict.balance === 'differs'
      ? `the balance differs: ${money(report.balance.unexplainedFen ?? 0)} explained by no order or refund`
      : verdict.balance === 'matches'
        ? 'the balance is explained to the fen'
        : `the balance was NOT CHECKED: ${verdict.balanceMissing === 'end' ? 'no balance could be read for the end' : 'no balance was read before the first charge, the opening is not known'}`;
  return `${verdict.status === 'notChecked' ? 'NOT FULLY CHECKED' : 'DIFFERENCES'}: ${orders}; ${balance}`;
}

function differenceLine(d: ReconcileReport['differences'][number]): string {
  const head = `${d.kind}\t${d.platformOrderRef ?? '-'}\t${d.clientOrderRef}`;
  switch (d.kind) {
    case 'cards':
      return `${head}\tmerchant ${d.merchantCards} cards, vault ${d.vaultCards}, units ${d.units}`;
    case 'mismatch':
      return `${head}\t${d.fields.join(',')}\tmerchant ${d.merchant.state} ×${d.merchant.units} ${money(d.merchant.totalFen)}; app ${d.local === null ? '-' : `${d.local.state} ×${d.local.units} ${money(d.local.totalFen)}`}`;
    case 'foreign':
      return `${head}\t${d.merchant.state} ×${d.merchant.units} ${money(d.merchant.totalFen)}`;
    case 'notReceived':
      return `${head}\t${d.intentStatus} ×${d.units}`;
  }
}

export async function reconcileCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const fromDay = optionOf(args, 'from');
  const toDay = optionOf(args, 'to');
  const services = await context.core.merchant();
  const report = await services.reconciliation.run(
    { ...(fromDay === undefined ? {} : { fromDay }), ...(toDay === undefined ? {} : { toDay }) },
    { onProgress: (p) => progress(`reconcile: page ${p.pagesRead}/${p.pageCount ?? '?'} (${p.requests} requests)`) },
  );
  if (args.flags.has('json')) {
    printJson(report);
  } else {
    const b = report.balance;
    printLine(headline(report));
    printLine(`reconcile ${report.fromDay} … ${report.toDay}: ${report.totals.merchantOrders} orders at the merchant, ${report.totals.appOrders} of this app, ${report.totals.cardOrdersCompared} card counts compared, ${report.totals.differences} differences`);
    printLine(`books: charges ${money(report.totals.bookChargedFen)}, refunds ${money(report.totals.bookRefundedFen)}`);
    printLine(`balance: opening ${boundary(b.start)}; closing ${boundary(b.end)}; between them charges ${money(b.chargesFen)}, refunds ${money(b.refundsFen)}; unexplained ${b.unexplainedFen === null ? 'not known' : money(b.unexplainedFen)}`);
    for (const d of report.differences) printLine(differenceLine(d));
  }
  return report.verdict.status === 'clean' ? EXIT.ok : EXIT.differences;
}
