// The reconciliation report as an export table (CSV, XLSX through core/export's writers): the totals,
// the balance check, then one row per difference. Built from the report only, which holds counts and
// the merchant's list items: there is no card secret anywhere in it to leak. The order number and the
// client ref are code cells (a spreadsheet keeps every digit, contract §16.1); amounts are prices, numbers
// a spreadsheet sums; counts, days and words are plain cells.
import type { ExportLanguage } from '../../shared/ipc/views/vault';
import type { BoundaryBalance, ReconcileDifference, ReconcileReport } from '../../shared/ipc/views/reconcile';
import { codeCell, type ExportCell, type ExportTable } from '../export/export-table';

const WORDS = {
  en: {
    sheet: 'Reconciliation',
    headers: ['Section', 'Item', 'Order number', 'Client ref', 'Product', 'Merchant', 'App', 'Amount (yuan)', 'Note'],
    summary: 'Summary',
    range: 'Range',
    merchantOrders: 'Orders at the merchant',
    appOrders: 'Orders of the app',
    unknownStates: 'Unknown states (not counted as success)',
    differences: 'Differences',
    verdict: 'Checked',
    verdicts: { clean: 'everything checked, nothing differs', differences: 'differences found', notChecked: 'the balance could not be checked' },
    bookCharged: 'Charges in the books',
    bookRefunded: 'Refunds in the books',
    readAt: 'read at',
    balance: 'Balance',
    start: 'Balance at start',
    end: 'Balance at end',
    notKnown: 'not known',
    charges: 'Charges recorded',
    refunds: 'Refunds recorded',
    unexplained: 'Unexplained difference',
    difference: 'Difference',
    units: 'units',
    kinds: { foreign: 'Foreign order', mismatch: 'Differs', cards: 'Card count', notReceived: 'Never received' },
  },
  'zh-CN': {
    sheet: '对账',
    headers: ['部分', '项目', '订单号', '客户单号', '商品', '商户', '本应用', '金额（元）', '说明'],
    summary: '汇总',
    range: '日期范围',
    merchantOrders: '商户订单数',
    appOrders: '本应用订单数',
    unknownStates: '未知状态（不计为成功）',
    differences: '差异数',
    verdict: '核对结果',
    verdicts: { clean: '全部已核对，没有差异', differences: '发现差异', notChecked: '余额无法核对' },
    bookCharged: '账本扣款',
    bookRefunded: '账本退款',
    readAt: '读取于',
    balance: '余额',
    start: '期初余额',
    end: '期末余额',
    notKnown: '未知',
    charges: '已记录扣款',
    refunds: '已记录退款',
    unexplained: '无法解释的差额',
    difference: '差异',
    units: '数量',
    kinds: { foreign: '外部订单', mismatch: '不一致', cards: '卡密数量', notReceived: '商户未收到' },
  },
} as const;

const boundary = (b: BoundaryBalance): ExportCell => (b.known ? { fen: b.balanceFen } : null);
/** When the reading was taken (ISO, UTC): the note beside a known boundary. */
const readAt = (b: BoundaryBalance, words: (typeof WORDS)[ExportLanguage]): string => (b.known ? `${words.readAt} ${new Date(b.atMs).toISOString()}` : words.notKnown);

function differenceRow(d: ReconcileDifference, words: (typeof WORDS)[ExportLanguage]): ExportCell[] {
  const head: ExportCell[] = [words.difference, words.kinds[d.kind], codeCell(d.platformOrderRef ?? ''), codeCell(d.clientOrderRef), d.productName];
  switch (d.kind) {
    case 'foreign':
      return [...head, d.merchant.state, null, { fen: d.merchant.totalFen }, null];
    case 'mismatch':
      return [...head, `${d.merchant.state} ×${d.merchant.units}`, d.local === null ? null : `${d.local.state} ×${d.local.units}`, { fen: d.merchant.totalFen }, d.fields.join(', ')];
    case 'cards':
      return [...head, String(d.merchantCards), String(d.vaultCards), null, `${words.units} ${d.units}`];
    case 'notReceived':
      return [...head, null, d.intentStatus, null, `${words.units} ${d.units}`];
  }
}

export function reconcileReportTable(report: ReconcileReport, language: ExportLanguage = 'zh-CN'): ExportTable {
  const w = WORDS[language];
  const t = report.totals;
  const b = report.balance;
  const rows: ExportCell[][] = [
    [w.summary, w.range, null, null, null, report.fromDay, report.toDay, null, null],
    [w.summary, w.merchantOrders, null, null, null, String(t.merchantOrders), null, { fen: t.merchantChargedFen }, null],
    [w.summary, w.appOrders, null, null, null, null, String(t.appOrders), null, null],
    [w.summary, w.unknownStates, null, null, null, String(t.unknownStates), null, null, null],
    [w.summary, w.differences, null, null, null, String(t.differences), null, null, null],
    [w.summary, w.verdict, null, null, null, null, null, null, w.verdicts[report.verdict.status]],
    [w.summary, w.bookCharged, null, null, null, null, null, { fen: t.bookChargedFen }, null],
    [w.summary, w.bookRefunded, null, null, null, null, null, { fen: t.bookRefundedFen }, null],
    [w.balance, w.start, null, null, null, null, null, boundary(b.start), readAt(b.start, w)],
    [w.balance, w.end, null, null, null, null, null, boundary(b.end), readAt(b.end, w)],
    [w.balance, w.charges, null, null, null, null, null, { fen: b.chargesFen }, null],
    [w.balance, w.refunds, null, null, null, null, null, { fen: b.refundsFen }, null],
    [w.balance, w.unexplained, null, null, null, null, null, b.unexplainedFen === null ? null : { fen: b.unexplainedFen }, b.unexplainedFen === null ? w.notKnown : null],
    ...report.differences.map((d) => differenceRow(d, w)),
  ];
  return { sheetName: w.sheet, headers: w.headers, rows };
}
