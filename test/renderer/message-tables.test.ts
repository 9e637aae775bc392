// The message tables themselves: Chinese without English words (outside the allow-list), English
// counts in plural blocks, and words for every merchant error code in both languages.
import { describe, expect, it } from 'vitest';
import { englishWords, shownMessageKeys } from '../../src/renderer/src/i18n/english-words';
import { en, type MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';
import { translate } from '../../src/renderer/src/i18n/translate';
import { MERCHANT_ERROR } from '../../src/shared/merchant-error-codes';

const keys = Object.keys(en) as MessageKey[];

/** Plural blocks taken out, so what is left is text a count placeholder sits in without them. */
function outsidePluralBlocks(text: string): string {
  return text.replace(/\{\w+, plural,(?:\s*=?\w+\s*\{[^{}]*\})+\s*\}/g, ' ');
}

/**
 * A placeholder followed by a plural noun ("{count} orders", "{max} characters", "{n} times"): the
 * number decides the noun's form, so it belongs in a plural block. The noun is recognised by its
 * English plural ending; verbs and pronouns that end in s are not nouns here.
 */
const NOT_PLURAL_NOUNS = new Set(['is', 'was', 'has', 'its', 'this', 'us', 'as', 'yes', 'does', 'goes', 'plus']);
function countsOutsidePlural(text: string): string[] {
  return [...outsidePluralBlocks(text).matchAll(/\{(\w+)\}\+?\s+([A-Za-z]+s)\b/g)].map((match) => match[0]).filter((hit) => !NOT_PLURAL_NOUNS.has(hit.split(/\s+/).at(-1) ?? ''));
}

describe('message tables', () => {
  it('zh-CN has no English words outside the allow-list', () => {
    const offenders = keys.map((key) => ({ key, words: englishWords(zhCN[key]) })).filter((entry) => entry.words.length > 0);
    expect(offenders).toEqual([]);
  });

  it('the scan rule catches English and lets names, addresses and code through', () => {
    expect(englishWords('请检查 cardNo 字段')).toEqual(['cardNo']);
    expect(englishWords('merchant error 503001 TEMPORARILY_UNAVAILABLE (HTTP 503)')).toEqual(['merchant', 'error']);
    expect(englishWords('例如 https://api.example-merchant.cn；需要 ngrok 令牌；导出 CSV、.png；`npm run web` --data')).toEqual([]);
    expect(englishWords('芒果TV')).toEqual(['TV']);
  });

  it('no table text looks like a message key', () => {
    const heads = new Set(keys.map((key) => key.split('.')[0] ?? ''));
    expect(shownMessageKeys('请看 order.unitRule 和 https://api.example.cn', heads)).toEqual(['order.unitRule']);
    expect(keys.flatMap((key) => shownMessageKeys(`${en[key]} ${zhCN[key]}`, heads).map((shown) => `${key}: ${shown}`))).toEqual([]);
  });

  it('every English count beside a plural noun is a plural block', () => {
    expect(countsOutsidePlural('Fix {count} problems before sending.')).toEqual(['{count} problems']);
    expect(countsOutsidePlural('{count, plural, one {# order} other {# orders}} · {amount} was paid')).toEqual([]);
    const offenders = keys.flatMap((key) => countsOutsidePlural(en[key]).map((hit) => `${key}: ${hit}`));
    expect(offenders).toEqual([]);
  });

  it('one and many read right in English and Chinese', () => {
    expect(translate('en', 'order.fixErrors', { count: 1 })).toBe('Fix 1 problem before sending.');
    expect(translate('en', 'order.fixErrors', { count: 3 })).toBe('Fix 3 problems before sending.');
    expect(translate('en', 'catalog.variants', { count: 1 })).toBe('1 variant');
    expect(translate('en', 'catalog.results', { count: 1234 })).toBe('1,234 products');
    expect(translate('zh-CN', 'catalog.variants', { count: 1 })).toBe('1 个规格');
    expect(translate('en', 'orderForm.unitsFixed', { count: 1 })).toBe('Quantity fixed at 1');
    expect(translate('zh-CN', 'orderForm.unitsFixed', { count: 1 })).toBe('数量固定为 1');
  });

  it('every merchant error code has words in both languages', () => {
    const codes = Object.values(MERCHANT_ERROR);
    const missing = codes.filter((code) => !Object.hasOwn(en, `merchantError.${code}`) || !Object.hasOwn(zhCN, `merchantError.${code}`));
    expect(missing).toEqual([]);
    // The words are the app's, not the identifier: a Chinese buyer never reads TEMPORARILY_UNAVAILABLE.
    for (const code of codes) {
      const key = `merchantError.${code}` as MessageKey;
      expect(englishWords(zhCN[key])).toEqual([]);
      expect(en[key]).not.toMatch(/[A-Z]{2,}_/);
    }
  });
});

describe('englishWords reads plural blocks', () => {
  it('skips the block syntax but reads each branch text', () => {
    expect(englishWords('{done} / {total, plural, other {# 页}}')).toEqual([]);
    expect(englishWords('{n, plural, one {# order} other {# 个订单}}')).toEqual(['order']);
    expect(englishWords('地址必须以 /openapi/v1 结尾')).toEqual([]);
  });
});
