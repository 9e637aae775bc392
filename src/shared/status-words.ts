// An order's status in the buyer's words, both languages: the one home of these words. The screens take
// them as their `orderState.*` / `intent.*` messages; files core writes (a batch's results, the
// reconciliation report) take them here, so a file says what the screen says (contract §16.4).
import { classifyOrderState, type OrderState } from './merchant/known-values';
import type { WordsLanguage } from './merchant-error-words';

export const ORDER_STATE_WORDS: Readonly<Record<WordsLanguage, Readonly<Record<OrderState, string>>>> = {
  'zh-CN': { pending: '待处理', processing: '处理中', verifying: '待输入验证码', completed: '已完成', failed: '失败', cancelled: '已取消', refunded: '已退款' },
  en: { pending: 'Pending', processing: 'Processing', verifying: 'Needs verification code', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled', refunded: 'Refunded' },
};

const INTENT_ZH = {
  queued: '排队中',
  sending: '发送中',
  unknown: '结果待确认',
  accepted: '已受理',
  rejected: '被拒绝',
  needs_confirmation: '待您确认',
  withdrawn: '已撤回',
  price_changed: '价格上涨，待您确认',
  unavailable: '暂时无法供货',
  withdrawing: '撤回中，正在核实',
  needs_key: '等待中：商户拒绝了 API 密钥',
  account_suspended: '等待中：商户账户已被暂停',
  access_denied: '等待中：商户拒绝了本机访问',
  needs_template: '等待下单表单',
  merchant_failing: '等待中：商户多次处理失败',
} as const;
export type IntentStatusName = keyof typeof INTENT_ZH;

/** Our own status of an order intent until the merchant holds the order. */
export const INTENT_STATUS_WORDS: Readonly<Record<WordsLanguage, Readonly<Record<IntentStatusName, string>>>> = {
  'zh-CN': INTENT_ZH,
  en: {
    queued: 'Queued',
    sending: 'Sending',
    unknown: 'Outcome uncertain',
    accepted: 'Accepted',
    rejected: 'Refused',
    needs_confirmation: 'Needs your confirmation',
    withdrawn: 'Withdrawn',
    price_changed: 'Price rose – needs your confirmation',
    unavailable: 'Cannot be supplied now',
    withdrawing: 'Withdrawing – being checked',
    needs_key: 'Waiting – the merchant refused the API key',
    account_suspended: 'Waiting – the merchant account is suspended',
    access_denied: 'Waiting – the merchant refused this computer',
    needs_template: 'Waiting for the order form',
    merchant_failing: 'Waiting – the merchant failed this order',
  },
};

/** A value this build does not know: said as unknown, never as success. */
export const UNKNOWN_STATUS_WORD: Readonly<Record<WordsLanguage, string>> = { 'zh-CN': '未知', en: 'Unknown' };

const isIntentStatus = (value: string): value is IntentStatusName => Object.hasOwn(INTENT_ZH, value);

/** "未知（shipped）": the raw value kept beside the word, for support. */
const unknownWords = (raw: string, language: WordsLanguage): string => (language === 'zh-CN' ? `${UNKNOWN_STATUS_WORD[language]}（${raw}）` : `${UNKNOWN_STATUS_WORD[language]} (${raw})`);

/** The merchant's order state in words; an unknown one as unknown with its raw value. */
export function orderStateWords(state: string, language: WordsLanguage): string {
  const c = classifyOrderState(state);
  return c.kind === 'known' ? ORDER_STATE_WORDS[language][c.value] : unknownWords(c.raw, language);
}

/** Our intent's status in words; an unknown one as unknown with its raw value. */
export function intentStatusWords(status: string, language: WordsLanguage): string {
  return isIntentStatus(status) ? INTENT_STATUS_WORDS[language][status] : unknownWords(status, language);
}

/** One status per order, as the screens' badge: the merchant's state once it holds the order, else our intent's. */
export function orderStatusWords(intentStatus: string, state: string | null, language: WordsLanguage): string {
  return state === null ? intentStatusWords(intentStatus, language) : orderStateWords(state, language);
}
