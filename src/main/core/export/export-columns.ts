// The file's columns, in the order the issue lists them, with headers in the buyer's language
// (Chinese by default: the people who receive these files read Chinese).
import type { ExportLanguage } from '../../../shared/ipc/vault-views';

export const EXPORT_COLUMNS = ['product', 'variant', 'orderRef', 'cardNo', 'cardPassword', 'expiresAt', 'orderedAt', 'price'] as const;
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
  },
  en: {
    product: 'Product',
    variant: 'Variant',
    orderRef: 'Order ref',
    cardNo: 'Card number',
    cardPassword: 'Card password',
    expiresAt: 'Expires',
    orderedAt: 'Ordered at',
    price: 'Price (CNY)',
  },
};

const SHEET_NAMES: Readonly<Record<ExportLanguage, string>> = { 'zh-CN': '卡密', en: 'Cards' };

export function exportHeaders(language: ExportLanguage): string[] {
  return EXPORT_COLUMNS.map((column) => HEADERS[language][column]);
}

export function exportSheetName(language: ExportLanguage): string {
  return SHEET_NAMES[language];
}
