// One dashboard chart's data as a table for the CSV and XLSX writers of core/export: exactly the
// numbers the chart draws (the same SpendReport), headers in the buyer's language (Chinese when not
// named). Money cells are fen, written as yuan by the writers; no card secret is anywhere near this.
import { SPEND_EXPORT_FILE_PREFIX, type SpendChart, type SpendReport } from '../../shared/ipc/views/books';
import type { ExportLanguage } from '../../shared/ipc/views/vault';
import type { ExportCell, ExportTable } from '../export/export-table';
import { formatStamp } from '../../shared/date-time';

type Words = Readonly<Record<string, string>>;

const WORDS: Readonly<Record<ExportLanguage, Words>> = {
  'zh-CN': {
    day: '日期',
    category: '分类',
    product: '商品',
    orders: '订单数',
    charged: '扣款（元）',
    refunded: '退款（元）',
    net: '净支出（元）',
    completed: '成功',
    unsuccessful: '失败/取消/退款',
    unknownState: '未知状态',
    successRate: '成功率（%）',
    medianMinutes: '交付时间中位数（分钟）',
    from: '首次看到',
    to: '最后看到',
    balance: '余额（元）',
    currency: '币种',
    unknownName: '（未知）',
    days: '每日支出',
    categories: '按分类',
    products: '按商品',
    outcomes: '成功率',
    delivery: '交付时间',
    balanceSheet: '余额',
  },
  en: {
    day: 'Day',
    category: 'Category',
    product: 'Product',
    orders: 'Orders',
    charged: 'Charged (CNY)',
    refunded: 'Refunded (CNY)',
    net: 'Net spend (CNY)',
    completed: 'Completed',
    unsuccessful: 'Failed/cancelled/refunded',
    unknownState: 'Unknown state',
    successRate: 'Success rate (%)',
    medianMinutes: 'Median delivery (minutes)',
    from: 'First seen',
    to: 'Last seen',
    balance: 'Balance (CNY)',
    currency: 'Currency',
    unknownName: '(unknown)',
    days: 'Spend per day',
    categories: 'By category',
    products: 'By product',
    outcomes: 'Success rate',
    delivery: 'Delivery time',
    balanceSheet: 'Balance',
  },
};

const w = (words: Words, key: string): string => words[key] ?? key;
const n = (value: number): string => String(value);
const minutes = (seconds: number | null): ExportCell => (seconds === null ? null : (seconds / 60).toFixed(1));
const percent = (completed: number, unsuccessful: number): ExportCell => (completed + unsuccessful === 0 ? null : ((completed * 100) / (completed + unsuccessful)).toFixed(1));


export function spendTable(report: SpendReport, chart: SpendChart, language: ExportLanguage): ExportTable {
  const words = WORDS[language];
  const moneyHeaders = [w(words, 'orders'), w(words, 'charged'), w(words, 'refunded'), w(words, 'net')];
  const moneyCells = (g: { orders: number; chargedFen: number; refundedFen: number; netFen: number }): ExportCell[] => [n(g.orders), { fen: g.chargedFen }, { fen: g.refundedFen }, { fen: g.netFen }];
  const named = (name: string | null): string => name ?? w(words, 'unknownName');
  switch (chart) {
    case 'days':
      return { sheetName: w(words, 'days'), headers: [w(words, 'day'), ...moneyHeaders], rows: report.days.map((d) => [d.day, ...moneyCells(d)]) };
    case 'categories':
      return { sheetName: w(words, 'categories'), headers: [w(words, 'category'), ...moneyHeaders], rows: report.byCategory.map((g) => [named(g.name), ...moneyCells(g)]) };
    case 'products':
      return { sheetName: w(words, 'products'), headers: [w(words, 'product'), ...moneyHeaders], rows: report.byProduct.map((g) => [named(g.name), ...moneyCells(g)]) };
    case 'outcomes':
      return {
        sheetName: w(words, 'outcomes'),
        headers: [w(words, 'day'), w(words, 'completed'), w(words, 'unsuccessful'), w(words, 'unknownState'), w(words, 'successRate')],
        rows: report.days.map((d) => [d.day, n(d.completed), n(d.unsuccessful), n(d.unknownState), percent(d.completed, d.unsuccessful)]),
      };
    case 'delivery':
      return { sheetName: w(words, 'delivery'), headers: [w(words, 'day'), w(words, 'completed'), w(words, 'medianMinutes')], rows: report.days.map((d) => [d.day, n(d.completed), minutes(d.medianDeliverySeconds)]) };
    case 'balance':
      return {
        sheetName: w(words, 'balanceSheet'),
        headers: [w(words, 'from'), w(words, 'to'), w(words, 'balance'), w(words, 'currency')],
        rows: report.balance.map((b) => [formatStamp(b.fromMs, report.query.timeZone), formatStamp(b.toMs, report.query.timeZone), { fen: b.balanceFen }, b.currency]),
      };
  }
}

/** The file name the host is offered: ASCII, naming the chart and the range. */
export function spendFileName(report: SpendReport, chart: SpendChart, format: 'csv' | 'xlsx'): string {
  return `${SPEND_EXPORT_FILE_PREFIX}${chart}-${report.query.from}-to-${report.query.to}.${format}`;
}
