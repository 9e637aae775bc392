// The words of a batch's results file that no screen shares (contract §16.4): its added columns, the
// status of a row never placed, and why a placed row is not (yet) an order, for the app's own codes.
// Statuses and row errors come from their one homes in shared/ (status-words.ts,
// batch-row-error-words.ts), a merchant's code from merchant-error-words.ts.
import type { WordsLanguage } from '../../shared/merchant-error-words';

const RESULT_COLUMNS = ['status', 'clientOrderRef', 'platformOrderRef', 'error'] as const;
type ResultColumn = (typeof RESULT_COLUMNS)[number] | 'merchant';

/**
 * The app's own codes an intent may carry (outbox notes, parks), in words: what happened, never what
 * happens next (the status column says that, and it is true in every state the code outlives).
 */
const OWN_CODES = ['INTERRUPTED', 'PRICE_CHANGED', 'SCHEMA_CHANGED', 'UNAVAILABLE', 'NOT_BEFORE', 'TIMEOUT', 'TRANSPORT', 'PROTOCOL', 'TEMPLATE_INPUT', 'LOCAL'] as const;
type OwnCode = (typeof OWN_CODES)[number];

interface ResultWords {
  readonly sheet: string;
  /**
   * Headers chosen so a results file fed back as a batch maps as its source did: none names a field
   * type the column guess knows (编号, 手机, 账号, id, phone, qty…, batch-mapping.ts).
   */
  readonly columns: Readonly<Record<ResultColumn, string>>;
  readonly invalid: string;
  readonly failedNoReason: string;
  /** The merchant's own failure reason, marked as the merchant's: it is not ours to translate. */
  readonly merchantSaid: (reason: string) => string;
  readonly own: Readonly<Record<OwnCode | 'other', string>>;
}

const WORDS: Readonly<Record<WordsLanguage, ResultWords>> = {
  'zh-CN': {
    sheet: '结果',
    columns: { status: '状态', clientOrderRef: '订单参考号', platformOrderRef: '商户订单号', error: '错误', merchant: '下单商户' },
    invalid: '有错误，未下单',
    failedNoReason: '商户未说明原因',
    merchantSaid: (reason) => `商户原文：${reason}`,
    own: {
      INTERRUPTED: '发送时应用中断',
      PRICE_CHANGED: '商户涨价，待您确认新价格',
      SCHEMA_CHANGED: '下单表单已变更，待您确认',
      UNAVAILABLE: '商户暂时无法供货',
      NOT_BEFORE: '商户要求稍后再发送',
      TIMEOUT: '商户未及时应答',
      TRANSPORT: '连不上商户',
      PROTOCOL: '商户的应答无法识别',
      TEMPLATE_INPUT: '填写的信息与新的下单表单不符',
      LOCAL: '应用出现问题',
      other: '出现问题',
    },
  },
  en: {
    sheet: 'Results',
    columns: { status: 'Status', clientOrderRef: 'Order ref', platformOrderRef: 'Merchant order no.', error: 'Error', merchant: 'Merchant' },
    invalid: 'Not placed: errors',
    failedNoReason: 'The merchant gave no reason',
    merchantSaid: (reason) => `The merchant said: ${reason}`,
    own: {
      INTERRUPTED: 'The app stopped while sending',
      PRICE_CHANGED: 'The merchant raised the price; needs your confirmation',
      SCHEMA_CHANGED: 'The order form changed; needs your confirmation',
      UNAVAILABLE: 'The merchant cannot supply it now',
      NOT_BEFORE: 'The merchant asked to send it later',
      TIMEOUT: 'The merchant did not answer in time',
      TRANSPORT: 'The merchant could not be reached',
      PROTOCOL: 'The merchant’s answer could not be read',
      TEMPLATE_INPUT: 'The details do not fit the new order form',
      LOCAL: 'The app had a problem',
      other: 'Something went wrong',
    },
  },
};

export const resultWords = (language: WordsLanguage): ResultWords => WORDS[language];

/** The columns added after the file's own, the merchant's last when a fallback rule sent the batch elsewhere. */
export function resultHeaders(language: WordsLanguage, withMerchant: boolean): string[] {
  const columns: readonly ResultColumn[] = withMerchant ? [...RESULT_COLUMNS, 'merchant'] : RESULT_COLUMNS;
  return columns.map((column) => WORDS[language].columns[column]);
}

const isOwnCode = (code: string): code is OwnCode => (OWN_CODES as readonly string[]).includes(code);

/** One of the app's codes in words (an unknown one as "something went wrong"). */
export function ownCodeWords(code: string, language: WordsLanguage): string {
  return WORDS[language].own[isOwnCode(code) ? code : 'other'];
}
