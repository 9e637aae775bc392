// The file's columns, in the order the issue lists them, with headers in the buyer's language
// (Chinese by default: the people who receive these files read Chinese). The order column is the
// merchant's order number (what the buyer and the merchant's support know); the refund column says
// which cards belong to a refunded or cancelled order; the internal ref comes last, for support only.
import type { CardRefundMark, ExportLanguage } from '../../shared/ipc/views/vault';

const EXPORT_COLUMNS = ['product', 'variant', 'orderRef', 'cardNo', 'cardPassword', 'expiresAt', 'orderedAt', 'price', 'refund', 'internalRef'] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

const HEADERS: Readonly<Record<ExportLanguage, Readonly<Record<ExportColumn, string>>>> = {
  'zh-CN': {
    product: '商品',
    variant: '规格',
    orderRef: '订单号',
    cardNo: '卡号',
    cardPassword: '卡密',
    expiresAt: '有效期至',
    orderedAt: '下单时间',
    price: '单价（元）',
    refund: '退款状态',
    internalRef: '内部编号',
  },
  en: {
    product: 'Product',
    variant: 'Variant',
    orderRef: 'Order number',
    cardNo: 'Card number',
    cardPassword: 'Card password',
    expiresAt: 'Expires',
    orderedAt: 'Ordered at',
    price: 'Price (CNY)',
    refund: 'Refund',
    internalRef: 'Internal ref',
  },
};

/** The refund column's words; a card without a mark has an empty cell. */
const REFUND_WORDS: Readonly<Record<ExportLanguage, Readonly<Record<CardRefundMark, string>>>> = {
  'zh-CN': { refunded: '已退款', cancelled: '已取消', partlyRefunded: '部分退款' },
  en: { refunded: 'Refunded', cancelled: 'Cancelled', partlyRefunded: 'Partly refunded' },
};

/** Before the merchant answered there is no order number: the cell says so instead of an internal ref. */
const UNNUMBERED: Readonly<Record<ExportLanguage, string>> = { 'zh-CN': '（尚未编号）', en: '(not yet numbered)' };

export function refundWord(mark: CardRefundMark, language: ExportLanguage): string {
  return REFUND_WORDS[language][mark];
}

export function unnumberedWord(language: ExportLanguage): string {
  return UNNUMBERED[language];
}

const SHEET_NAMES: Readonly<Record<ExportLanguage, string>> = { 'zh-CN': '卡密', en: 'Cards' };

/** Where a column sits in every row of the table (the TXT export reads the codes back from it). */
export function exportColumnIndex(column: ExportColumn): number {
  return EXPORT_COLUMNS.indexOf(column);
}

export function exportHeaders(language: ExportLanguage): string[] {
  return EXPORT_COLUMNS.map((column) => HEADERS[language][column]);
}

export function exportSheetName(language: ExportLanguage): string {
  return SHEET_NAMES[language];
}
