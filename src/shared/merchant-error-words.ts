// What a merchant error code means to the buyer, and its short words in both languages: the one home
// of these words. The screens take them as the `problem.<meaning>.title` messages (the order dialog,
// the detail, a batch row); files core writes (a batch's results) take them here, with the code beside.
import { MERCHANT_ERROR } from './merchant-error-codes';

export const MERCHANT_PROBLEMS = [
  'balance',
  'inventory',
  'templateChanged',
  'unavailable',
  'unitsNotAllowed',
  'purchaseInputInvalid',
  'keyInvalid',
  'suspended',
  'ipDenied',
  'rateLimited',
  'attemptsLimited',
  'actionNotAllowed',
  'merchantTrouble',
  'unknown',
] as const;
export type MerchantProblem = (typeof MERCHANT_PROBLEMS)[number];

export type WordsLanguage = 'zh-CN' | 'en';

export function merchantProblemOf(code: number): MerchantProblem {
  switch (code) {
    case MERCHANT_ERROR.BALANCE_INSUFFICIENT:
      return 'balance';
    case MERCHANT_ERROR.INVENTORY_UNAVAILABLE:
      return 'inventory';
    case MERCHANT_ERROR.PURCHASE_SCHEMA_CHANGED:
      return 'templateChanged';
    case MERCHANT_ERROR.PRODUCT_UNAVAILABLE:
      return 'unavailable';
    case MERCHANT_ERROR.UNITS_NOT_ALLOWED:
      return 'unitsNotAllowed';
    case MERCHANT_ERROR.PURCHASE_INPUT_INVALID:
      return 'purchaseInputInvalid';
    case MERCHANT_ERROR.INVALID_CREDENTIAL:
      return 'keyInvalid';
    case MERCHANT_ERROR.CREDENTIAL_SUSPENDED:
      return 'suspended';
    case MERCHANT_ERROR.SOURCE_IP_DENIED:
      return 'ipDenied';
    case MERCHANT_ERROR.RATE_LIMITED:
      return 'rateLimited';
    case MERCHANT_ERROR.OTP_ATTEMPTS_LIMITED:
    case MERCHANT_ERROR.CANCELLATION_ATTEMPTS_LIMITED:
    case MERCHANT_ERROR.REFUND_ATTEMPTS_LIMITED:
      return 'attemptsLimited';
    case MERCHANT_ERROR.CANCELLATION_NOT_ALLOWED:
    case MERCHANT_ERROR.REFUND_NOT_ALLOWED:
    case MERCHANT_ERROR.CASE_ACTION_NOT_ALLOWED:
    case MERCHANT_ERROR.OTP_NOT_ALLOWED:
      return 'actionNotAllowed';
    case MERCHANT_ERROR.INTERNAL_ERROR:
    case MERCHANT_ERROR.TEMPORARILY_UNAVAILABLE:
      return 'merchantTrouble';
    default:
      // Any other 429 is still "slow down"; other unknown codes stay unknown, shown with their number.
      return Math.floor(code / 1000) === 429 ? 'rateLimited' : 'unknown';
  }
}

export const MERCHANT_PROBLEM_TITLES: Readonly<Record<WordsLanguage, Readonly<Record<MerchantProblem, string>>>> = {
  'zh-CN': {
    balance: '余额不足',
    inventory: '库存不足',
    templateChanged: '下单表单已变更',
    unavailable: '暂不可售',
    unitsNotAllowed: '数量不被允许',
    purchaseInputInvalid: '填写的信息被拒绝',
    keyInvalid: 'API 密钥无效',
    suspended: '账户已被停用',
    ipDenied: '当前网络不被允许',
    rateLimited: '请求过于频繁',
    attemptsLimited: '尝试次数过多',
    actionNotAllowed: '当前无法操作',
    merchantTrouble: '商户系统异常',
    unknown: '出现问题',
  },
  en: {
    balance: 'Not enough balance',
    inventory: 'Not enough stock',
    templateChanged: 'The order form changed',
    unavailable: 'Not available',
    unitsNotAllowed: 'Quantity not allowed',
    purchaseInputInvalid: 'Details refused',
    keyInvalid: 'The API key is not valid',
    suspended: 'Your account is suspended',
    ipDenied: 'This network is not allowed',
    rateLimited: 'Too many requests',
    attemptsLimited: 'Too many attempts',
    actionNotAllowed: 'Not possible now',
    merchantTrouble: 'The merchant has a problem',
    unknown: 'Something went wrong',
  },
};

/** "余额不足（商户错误码 422103）": the words, then the code for support (a file's cell, a log a person reads). */
export function merchantErrorWords(code: number, language: WordsLanguage): string {
  const title = MERCHANT_PROBLEM_TITLES[language][merchantProblemOf(code)];
  return language === 'zh-CN' ? `${title}（商户错误码 ${code}）` : `${title} (merchant code ${code})`;
}
