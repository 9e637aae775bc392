// Which facts of an order differ between the merchant and the books, in the buyer's words, both
// languages: the one home of these words. The Reconciliation screen takes them as its
// `reconcile.field.*` messages, the report's file (core/books/reconcile-report-table.ts) here.
import type { MismatchField } from './ipc/views/reconcile';
import type { WordsLanguage } from './merchant-error-words';

export const MISMATCH_FIELD_WORDS: Readonly<Record<WordsLanguage, Readonly<Record<MismatchField, string>>>> = {
  'zh-CN': { state: '状态', amount: '金额', units: '数量', refunds: '退款', notStored: '本地尚未保存' },
  en: { state: 'state', amount: 'amount', units: 'units', refunds: 'refunds', notStored: 'not stored here yet' },
};

/** The differing facts as one cell: 状态、金额 / state, amount. */
export function mismatchFieldsWords(fields: readonly MismatchField[], language: WordsLanguage): string {
  return fields.map((field) => MISMATCH_FIELD_WORDS[language][field]).join(language === 'zh-CN' ? '、' : ', ');
}
