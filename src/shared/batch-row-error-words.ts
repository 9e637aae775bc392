// What is wrong with a batch row, in the buyer's words, both languages: the one home of these words.
// The batch dialog's preview takes them as its `batch.error.<code>` messages; a batch's results file
// (core/batch/batch-results.ts) takes them here, so a row's error in the file reads as on the screen.
// `{field}` is the field's label, `{line}`/`{column}` where a file's unreadable bytes are.
import type { WordsLanguage } from './merchant-error-words';

const ZH = {
  UNITS_EMPTY: '数量为空',
  UNITS_NOT_WHOLE: '数量不是整数',
  UNITS_OUT_OF_RANGE: '数量超出商户允许的范围',
  UNITS_STEP: '数量不符合商户的递增规则',
  ENTRY_COUNT: '该商品每件需要一个账号：请每件一行',
  REQUIRED: '{field}为空',
  UNKNOWN_FIELD: '不需要填写{field}',
  NOT_A_STRING: '{field}不是文本',
  TOO_SHORT: '{field}太短',
  TOO_LONG: '{field}太长',
  PATTERN: '{field}格式不正确',
  MOBILE: '{field}不是有效的大陆手机号',
  EMAIL: '{field}不是有效的邮箱地址',
  INTEGER: '{field}不是整数',
  OPTION: '{field}不在可选范围内',
  INVALID_BYTES: '第 {line} 行第 {column} 个字符处有无法识别的字节',
  INVALID_CHARACTERS: '{field}含有账号中不会出现的字符（乱码“�”或控制字符）',
  other: '{field}无法下单',
} as const;
export type BatchRowErrorWord = keyof typeof ZH;

export const BATCH_ROW_ERROR_WORDS: Readonly<Record<WordsLanguage, Readonly<Record<BatchRowErrorWord, string>>>> = {
  'zh-CN': ZH,
  en: {
    UNITS_EMPTY: 'The quantity is empty',
    UNITS_NOT_WHOLE: 'The quantity is not a whole number',
    UNITS_OUT_OF_RANGE: 'The quantity is outside what the merchant allows',
    UNITS_STEP: 'The quantity does not fit the merchant’s steps',
    ENTRY_COUNT: 'This product takes one account per unit: one row per unit',
    REQUIRED: '{field} is empty',
    UNKNOWN_FIELD: '{field} is not asked for',
    NOT_A_STRING: '{field} is not text',
    TOO_SHORT: '{field} is too short',
    TOO_LONG: '{field} is too long',
    PATTERN: '{field} is not in the expected format',
    MOBILE: '{field} is not a mainland mobile number',
    EMAIL: '{field} is not an email address',
    INTEGER: '{field} is not a whole number',
    OPTION: '{field} is not one of the listed options',
    INVALID_BYTES: 'Unreadable bytes at line {line}, column {column}',
    INVALID_CHARACTERS: 'A character no account holds is in {field} (garbled text “�” or a control character)',
    other: '{field} cannot be ordered',
  },
};

const isWord = (code: string): code is BatchRowErrorWord => Object.hasOwn(ZH, code);

/** One row error in words: a code this table lacks reads as `other`, never as the core's English. */
export function batchRowErrorWords(error: { readonly code: string; readonly field: string; readonly line?: number; readonly column?: number }, language: WordsLanguage): string {
  const template = BATCH_ROW_ERROR_WORDS[language][isWord(error.code) ? error.code : 'other'];
  const values: Readonly<Record<string, string>> = { field: error.field, line: String(error.line ?? ''), column: String(error.column ?? '') };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Several errors of one row, joined as the preview joins them. */
export function batchRowErrorsWords(errors: readonly Parameters<typeof batchRowErrorWords>[0][], language: WordsLanguage): string {
  return errors.map((error) => batchRowErrorWords(error, language)).join(language === 'zh-CN' ? '；' : '; ');
}
