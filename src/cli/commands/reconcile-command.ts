// `reconcile [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]`: the books of a range against the merchant
// (contract §12.2), days in this machine's time zone, yesterday by default. Progress on stderr; the
// report on stdout (one JSON document with --json: money in integer fen). Exit 0 only when nothing
// differs, 6 when the run finished and found differences; errors keep their own codes (2 usage, 3 the
// merchant refused, 4 network or an inconsistent list: run again, it resumes at the next page).
import { optionOf, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, printLine, progress, yuan } from '../output';

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
    const balanceAt = (side: typeof b.start): string => (side.known ? `¥${yuan(side.balanceFen) ?? '?'}` : 'not known (no balance seen at that moment)');
    printLine(`reconcile ${report.fromDay} … ${report.toDay}: ${report.totals.merchantOrders} orders at the merchant, ${report.totals.appOrders} of this app, ${report.totals.differences} differences`);
    printLine(`balance at start ${balanceAt(b.start)}, at end ${balanceAt(b.end)}; charges ¥${yuan(b.chargesFen) ?? '0'}, refunds ¥${yuan(b.refundsFen) ?? '0'}; unexplained ${b.unexplainedFen === null ? 'not known' : `¥${yuan(b.unexplainedFen) ?? '?'}`}`);
    for (const d of report.differences) printLine(`${d.kind}\t${d.platformOrderRef ?? '-'}\t${d.clientOrderRef}`);
  }
  return report.differences.length === 0 ? EXIT.ok : EXIT.differences;
}
