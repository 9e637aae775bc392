// `report spend [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--product N] [--json]`: the dashboard's spend
// report (core/books/spend-report.ts, the same one) for scripts, offline, from what this machine
// knows. Days are local days of this process's time zone (TZ); without --from/--to the last 30 days
// up to today. Exit 0 with the report; 2 for a bad day, a reversed or too long range, an unknown option.
import { LocalDayError, localDayOf, processTimeZone, spendReportForConnection } from '../../core';
import type { SpendGroup, SpendQuery, SpendReport } from '../../shared/ipc/views/books';
import { type ParsedArgs, UsageError } from '../cli-args';
import type { CliContext } from '../cli-context';
import { printJson, printLine, yuan } from '../output';

const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

function one(args: ParsedArgs, name: string): string | undefined {
  const values = args.options.get(name);
  if (values !== undefined && values.length > 1) throw new UsageError(`--${name} may be given once`);
  return values?.[0];
}

function queryOf(args: ParsedArgs, timeZone: string, nowMs: number): SpendQuery {
  const to = one(args, 'to') ?? localDayOf(timeZone, nowMs);
  const from = one(args, 'from') ?? localDayOf(timeZone, nowMs - (DEFAULT_DAYS - 1) * DAY_MS);
  const product = one(args, 'product');
  if (product !== undefined && !/^[1-9]\d{0,15}$/.test(product)) throw new UsageError(`--product takes a product number, not ${product}`);
  return { from, to, timeZone, ...(product === undefined ? {} : { productRef: Number(product) }) };
}

const money = (g: { orders: number; chargedFen: number; refundedFen: number; netFen: number }): string => `${g.orders}\t¥${yuan(g.chargedFen)}\t¥${yuan(g.refundedFen)}\t¥${yuan(g.netFen)}`;

function printGroups(title: string, groups: readonly SpendGroup[]): void {
  printLine(`${title}\torders\tcharged\trefunded\tnet`);
  for (const g of groups) printLine(`  ${g.name ?? '(unknown)'}\t${money(g)}`);
}

function printReport(report: SpendReport): void {
  const t = report.totals;
  printLine(`spend ${report.query.from} … ${report.query.to} (${report.query.timeZone})`);
  printLine(`orders ${t.orders}\tcharged ¥${yuan(t.chargedFen)}\trefunded ¥${yuan(t.refundedFen)}\tnet ¥${yuan(t.netFen)}`);
  const rate = t.successRate === null ? '-' : `${(t.successRate * 100).toFixed(1)}%`;
  const delivery = t.medianDeliverySeconds === null ? '-' : `${(t.medianDeliverySeconds / 60).toFixed(1)} min`;
  printLine(`completed ${t.completed}\tunsuccessful ${t.unsuccessful}\tin progress ${t.inProgress}\tunknown state ${t.unknownState}\tsuccess rate ${rate}\tmedian delivery ${delivery}`);
  printLine('day\torders\tcharged\trefunded\tnet');
  for (const d of report.days) if (d.orders > 0) printLine(`  ${d.day}\t${money(d)}`);
  printGroups('category', report.byCategory);
  printGroups('product', report.byProduct);
}

export function reportCommand(context: CliContext, args: ParsedArgs): void {
  if (args.words[1] !== 'spend' || args.words.length > 2) throw new UsageError(`unknown report: ${args.words.slice(1).join(' ') || '(none)'}; try report spend`);
  const timeZone = processTimeZone();
  let report: SpendReport;
  try {
    report = spendReportForConnection(context.core.db, queryOf(args, timeZone, Date.now()));
  } catch (error) {
    if (error instanceof LocalDayError) throw new UsageError(error.message);
    throw error;
  }
  if (args.flags.has('json')) printJson(report);
  else printReport(report);
}
